// What an answer of POST /ask (the live contract) must hold beyond its schema (D-ask-relevance, D-ask-intent,
// D-ask-charging): results best first, each page once, relevance with two decimals and at least 0.5, each from an
// engine the intent names; an intent naming engines once, at most five; `errors` naming only searched engines, and
// a 200 never answering a call whose every engine failed (that is a free 502).
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

/** A 200 answer of /ask, parsed. */
function askAnswer(ctx: ExchangeContext): Obj | undefined {
  if (ctx.op?.operationId !== "ask" || ctx.status !== 200 || !ctx.json?.ok) return undefined;
  return obj(ctx.json.value);
}

/** A link as D-ask-relevance compares them: scheme, a leading www., a trailing slash and the fragment ignored. */
function linkKey(link: string): string {
  try {
    const u = new URL(link);
    return `${u.host.toLowerCase().replace(/^www\./, "")}${u.pathname.replace(/\/+$/, "")}${u.search}`;
  } catch {
    return link;
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);

export const askResultsRanked: ExchangeRule = {
  kind: "exchange",
  id: "ask-results-ranked",
  title:
    "An /ask answer holds only results of relevance 0.5..1 with two decimals, best first, each page once, each from an engine its intent names",
  side: "response",
  severity: "major",
  basis: "D-ask-relevance",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const body = askAnswer(ctx);
    if (!body || !Array.isArray(body.results)) return [];
    const out: Violation[] = [];
    const sources = new Set(strings(obj(body.intent)?.sources));
    const seen = new Map<string, number>();
    let previous = Number.POSITIVE_INFINITY;
    body.results.forEach((r, i) => {
      const result = obj(r);
      if (!result) return;
      const relevance = result.relevance;
      if (typeof relevance === "number") {
        if (relevance < 0.5 || relevance > 1)
          out.push({
            rule: this.id,
            message: `results[${i}].relevance is out of 0.5..1`,
            expected: "0.5..1",
            actual: `${relevance}`,
          });
        else if (Math.abs(relevance * 100 - Math.round(relevance * 100)) > 1e-9)
          out.push({
            rule: this.id,
            message: `results[${i}].relevance has more than two decimals`,
            actual: `${relevance}`,
          });
        if (relevance > previous)
          out.push({
            rule: this.id,
            message: `results[${i}] scores higher than the result before it: not best first`,
            expected: `≤ ${previous}`,
            actual: `${relevance}`,
          });
        previous = relevance;
      }
      if (typeof result.link === "string") {
        const key = linkKey(result.link);
        const first = seen.get(key);
        if (first !== undefined)
          out.push({
            rule: this.id,
            message: `results[${i}] is the page of results[${first}]: duplicates are merged`,
            actual: result.link,
          });
        else seen.set(key, i);
      }
      if (typeof result.source === "string" && sources.size > 0 && !sources.has(result.source))
        out.push({
          rule: this.id,
          message: `results[${i}].source is not an engine of intent.sources`,
          expected: [...sources].join(", "),
          actual: result.source,
        });
    });
    return out;
  },
};

export const askIntentShape: ExchangeRule = {
  kind: "exchange",
  id: "ask-intent-shape",
  title:
    "An /ask answer's intent names one to five engines, each once, with keywords; its errors name only engines searched, never all of them",
  side: "response",
  severity: "major",
  basis: "D-ask-intent; D-ask-charging",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const body = askAnswer(ctx);
    const intent = obj(body?.intent);
    if (!body || !intent) return [];
    const out: Violation[] = [];
    const sources = strings(intent.sources);
    if (sources.length < 1 || sources.length > 5)
      out.push({
        rule: this.id,
        message: "intent.sources names no engine or more than five",
        expected: "1..5",
        actual: `${sources.length}`,
      });
    if (new Set(sources).size !== sources.length)
      out.push({ rule: this.id, message: "intent.sources names an engine twice", actual: JSON.stringify(sources) });
    // never empty: a request with nothing left once its phrases are out is searched as sent (a blank one too)
    if (intent.search_query === "") out.push({ rule: this.id, message: "intent.search_query is empty" });
    const failed = (Array.isArray(body.errors) ? body.errors : [])
      .map((e) => obj(e)?.source)
      .filter((s) => typeof s === "string");
    for (const source of failed)
      if (!sources.includes(source as string))
        out.push({
          rule: this.id,
          message: `errors names ${source}, an engine intent.sources does not`,
          actual: String(source),
        });
    if (sources.length > 0 && sources.every((s) => failed.includes(s)))
      out.push({
        rule: this.id,
        message: "every engine failed, yet the call answered 200 (and was charged): it is a 502, free (D-ask-charging)",
        expected: "502",
        actual: "200",
      });
    return out;
  },
};
