// What answers echo of their request and how many results they hold (interface-spec "Search parameters", "Search
// response", "Trending result and response", "Crawl result and crawl response", "Extract response"; D-echo,
// D-trending-platforms), and what the service's TypeScript client relies on in those echoes.
import { isDeepStrictEqual } from "node:util";
import type { JsonSchema } from "../json-schema.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
// the same JSON value: members in any order (a JSON object is unordered), arrays in order
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/** Every (request item, answer) pair of a successful search or news call, batch entries unrolled. */
export function searchAnswers(ctx: ExchangeContext): Array<{ sent: Obj; answer: Obj; entry: number | null }> {
  const id = ctx.op?.operationId;
  if ((id !== "search" && id !== "news") || ctx.status !== 200 || !ctx.json?.ok) return [];
  const body = obj(ctx.json.value);
  if (!body) return [];
  if (Array.isArray(ctx.sent)) {
    const entries = Array.isArray(body.results) ? (body.results as unknown[]) : [];
    const out: Array<{ sent: Obj; answer: Obj; entry: number | null }> = [];
    entries.forEach((e, i) => {
      const entry = obj(e);
      const item = obj((ctx.sent as unknown[])[i]);
      const data = obj(entry?.data);
      if (entry?.success === true && data && item) out.push({ sent: item, answer: data, entry: i });
    });
    return out;
  }
  const sent = obj(ctx.sent);
  return sent ? [{ sent, answer: body, entry: null }] : [];
}

/** A successful single-body answer with the body sent. */
function singleAnswer(ctx: ExchangeContext, operationId: string): { sent: Obj; body: Obj } | null {
  if (ctx.op?.operationId !== operationId || ctx.status !== 200 || !ctx.json?.ok) return null;
  const sent = obj(ctx.sent);
  const body = obj(ctx.json.value);
  return sent && body ? { sent, body } : null;
}

export const parametersEcho: ExchangeRule = {
  kind: "exchange",
  id: "parameters-echo",
  title:
    "searchParameters echoes every request field; trendingParameters the request; crawlParameters.url and extractParameters.url the URL asked",
  side: "response",
  severity: "minor",
  basis: "Search response; Trending response; Crawl response; Extract response; D-echo",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const out: Violation[] = [];
    for (const a of searchAnswers(ctx)) {
      const echoed = obj(a.answer.searchParameters);
      const prefix = a.entry === null ? "" : `entry ${a.entry}: `;
      for (const [k, v] of Object.entries(a.sent))
        if (!same(echoed?.[k], v))
          out.push({
            rule: this.id,
            message: `${prefix}searchParameters.${k} is not echoed`,
            expected: JSON.stringify(v),
            actual: JSON.stringify(echoed?.[k]),
          });
    }
    const trending = singleAnswer(ctx, "trending");
    if (trending) {
      const echoed = obj(trending.body.trendingParameters);
      for (const [k, v] of Object.entries(trending.sent))
        if (!same(echoed?.[k], v))
          out.push({
            rule: this.id,
            message: `trendingParameters.${k} is not echoed`,
            expected: JSON.stringify(v),
            actual: JSON.stringify(echoed?.[k]),
          });
    }
    for (const op of ["crawl", "extract"]) {
      const a = singleAnswer(ctx, op);
      if (!a) continue;
      const url = obj(a.body[`${op}Parameters`])?.url;
      if (url !== a.sent.url)
        out.push({
          rule: this.id,
          message: `${op}Parameters.url is not the URL asked`,
          expected: String(a.sent.url),
          actual: String(url),
        });
    }
    return out;
  },
};

/** The request item schema of an operation (the object branch of a single-or-batch body). */
function itemSchema(ctx: ExchangeContext): JsonSchema | undefined {
  const s = ctx.op?.requestSchema;
  if (!s) return undefined;
  return (s.oneOf ?? [s]).find((b) => b.type === "object" || (b.properties && b.type !== "array"));
}

/** The most results an answer may hold: max_results sent, else its default, within its cap (D-trending-platforms). */
function maxResultsOf(ctx: ExchangeContext, sent: Obj): number | null {
  const p = itemSchema(ctx)?.properties?.max_results as (JsonSchema & Record<string, unknown>) | undefined;
  if (!p) return null;
  const asked = typeof sent.max_results === "number" ? sent.max_results : (p.default ?? p["x-default"]);
  if (typeof asked !== "number") return null;
  const cap = p["x-cap"];
  return typeof cap === "number" ? Math.min(asked, cap) : asked;
}

export const maxResults: ExchangeRule = {
  kind: "exchange",
  id: "max-results",
  title: "A search, news or trending answer never holds more results than max_results (or its default) allows",
  side: "response",
  severity: "major",
  basis: "Search parameters; POST /trending; D-trending-platforms",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const out: Violation[] = [];
    const judge = (sent: Obj, answer: Obj, prefix: string) => {
      const max = maxResultsOf(ctx, sent);
      const n = Array.isArray(answer.results) ? answer.results.length : 0;
      if (max !== null && n > max)
        out.push({
          rule: this.id,
          message: `${prefix}${n} results for max_results ${max}`,
          expected: `≤ ${max}`,
          actual: `${n}`,
        });
    };
    for (const a of searchAnswers(ctx)) judge(a.sent, a.answer, a.entry === null ? "" : `entry ${a.entry}: `);
    const trending = singleAnswer(ctx, "trending");
    if (trending) judge(trending.sent, trending.body, "");
    return out;
  },
};

/** The searchParameters members the TypeScript client types as always present (it never checks them). */
const TYPED_PRESENT = ["max_results", "crawl_results", "image", "include_sites", "exclude_sites"];
const ECHO_SCHEMA: Record<string, string> = { search: "SearchParameters", news: "NewsParameters" };

function echoSchemaProps(ctx: ExchangeContext): Record<string, JsonSchema> {
  const name = ECHO_SCHEMA[ctx.op?.operationId ?? ""];
  const s = name ? (ctx.contract.document.components?.schemas?.[name] as JsonSchema | undefined) : undefined;
  return (s?.properties ?? {}) as Record<string, JsonSchema>;
}

export const echoDefaults: ExchangeRule = {
  kind: "exchange",
  id: "client-search-echo-defaults",
  title: "searchParameters carries the effective value of every field the client types as present",
  side: "response",
  severity: "minor",
  basis: "Search response; D-echo (client: @search1api/client 0.2.1)",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const props = echoSchemaProps(ctx);
    const out: Violation[] = [];
    for (const a of searchAnswers(ctx)) {
      const echo = obj(a.answer.searchParameters) ?? {};
      for (const field of TYPED_PRESENT.filter((f) => f in props && !(f in echo)))
        out.push({
          rule: this.id,
          message: `${ctx.op?.operationId} searchParameters lacks ${field}`,
          expected: `${field}: ${JSON.stringify((props[field] as JsonSchema).default)} (the schema's default when not sent)`,
          actual: "(absent)",
        });
    }
    return out;
  },
};

export const trendingDescriptionNull: ExchangeRule = {
  kind: "exchange",
  id: "client-trending-description-null",
  title: "A trending result without a description leaves the field out rather than sending null",
  side: "response",
  severity: "minor",
  basis: "Trending result and response; D-trending-description (client: search1api-mcp 0.5.3)",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (ctx.op?.operationId !== "trending" || ctx.status !== 200 || !ctx.json?.ok) return [];
    const results = obj(ctx.json.value)?.results;
    if (!Array.isArray(results)) return [];
    const nulls = results.filter((r) => obj(r)?.description === null).length;
    return nulls
      ? [
          {
            rule: this.id,
            message: "trending results with description: null",
            expected: "no description member",
            actual: `${nulls} of ${results.length}`,
          },
        ]
      : [];
  },
};
