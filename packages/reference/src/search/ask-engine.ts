// POST /ask on the reference (the live contract; D-ask-intent, D-ask-relevance, D-ask-charging): the request read by
// the platform's readAskIntent (engines and window from its words), every chosen engine searched at once through the
// reference's own search and news engines (a configured upstream where one serves the value, else the local page
// index: D-search-service-fallback), each result scored against the keywords, then merged, filtered and ranked by
// the platform's mergeAskResults. An engine that fails is listed in `errors`; the answer is still a 200 and charged.
// When every engine fails the answer is PLB_UPSTREAM_FAILED, a 502 the platform does not charge.
import type { LiveSchemas, Schemas } from "@plumbline-kit/contract";
import { mergeAskResults, readAskIntent } from "@plumbline-kit/platform/ask-intent";
import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";
import type { Clock } from "@plumbline-kit/platform/stores";
import { foldDiacritics, wordsOf } from "./query-terms.ts";
import { timeRangeStart } from "./upstream/time-range.ts";

type AskResult = LiveSchemas["AskResult"];

/** Results asked of each engine before scoring (the answer keeps at most 20 of all engines together). */
export const ASK_PER_ENGINE = 10;

/** Engines answered from news rather than web search (hackernews is a news service of the contract). */
const NEWS_SOURCES = new Set(["hackernews"]);

// words that say nothing about what is looked for; a request made of nothing else keeps them
const STOP_WORDS = new Set(
  (
    "a an and are as at be by can do does for from how i in into is it its me my of on or our that the their this " +
    "to was what when where which who why will with you your best top good new latest recent"
  ).split(" "),
);

/**
 * One word as scoring compares them: lower case, accents folded, a light English stem (plural and -ing/-ed endings
 * dropped), so "databases" meets "database" and "benchmarking" meets "benchmark".
 */
export function stemOf(word: string): string {
  let w = foldDiacritics(word.toLowerCase()).replace(/'s$/, "");
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  return w;
}

/** The distinct keyword stems of a request's keywords, stop words left out (kept when nothing else is left). */
export function keywordStems(searchQuery: string): string[] {
  const all = [...new Set(wordsOf(searchQuery).map(stemOf))].filter((w) => w !== "");
  const meaningful = all.filter((w) => !STOP_WORDS.has(w));
  return meaningful.length > 0 ? meaningful : all;
}

/**
 * How well one result answers the keywords, in 0..1 (D-ask-relevance), from what every engine gives (title, snippet,
 * its place in the engine's answer), so results of the local index and of each upstream are scored alike:
 *
 *   relevance = 0.65 × coverage + 0.20 × inTitle + 0.15 × position
 *
 * coverage: the share of the keyword stems found in the title or the snippet; inTitle: the share found in the title;
 * position: 1 / (1 + rank / 4), rank the result's 0-based place in its engine's answer (1 for the first, 0.5 for
 * the fifth). A result carrying every keyword in its snippet alone scores at least 0.65; one carrying half of them
 * nowhere in its title at most 0.475, and is left out (below 0.5). Rounded to two decimals by mergeAskResults.
 */
export function askRelevance(stems: string[], hit: { title: string; snippet: string }, rank: number): number {
  if (stems.length === 0) return 0;
  const title = new Set(wordsOf(hit.title).map(stemOf));
  const text = new Set([...title, ...wordsOf(hit.snippet).map(stemOf)]);
  const coverage = stems.filter((s) => text.has(s)).length / stems.length;
  const inTitle = stems.filter((s) => title.has(s)).length / stems.length;
  const position = 1 / (1 + rank / 4);
  return 0.65 * coverage + 0.2 * inTitle + 0.15 * position;
}

export interface AskEngineOptions {
  /** the reference's search and news engines (their backends, sites and window rules) */
  engines: Pick<Engines, "search" | "news">;
  clock: Clock;
}

export function createAskEngine(o: AskEngineOptions): NonNullable<Engines["ask"]> {
  return async (request, ctx): Promise<EngineResult<LiveSchemas["AskResponse"]>> => {
    const intent = readAskIntent(request.query);
    const stems = keywordStems(intent.search_query);
    const since = timeRangeStart(intent.time_range ?? undefined, o.clock.now());
    // every engine at once; each answer (or failure) kept in the intent's order, which ties are ranked by
    const answers = await Promise.all(intent.sources.map((source) => searchOne(o.engines, source, intent, ctx)));
    const scored: AskResult[] = [];
    const errors: Array<{ source: string; message: string }> = [];
    intent.sources.forEach((source, i) => {
      const answer = answers[i] as Awaited<ReturnType<typeof searchOne>>;
      if (!answer.ok) {
        errors.push({ source, message: answer.message ?? `The ${source} engine failed` });
        return;
      }
      answer.value.forEach((hit, rank) => {
        const published = (hit as { published_date?: unknown }).published_date;
        const date = typeof published === "string" ? published : undefined;
        // the window applies to results with a date; an undated one cannot be judged and stays
        if (since && date && Date.parse(date) < since.getTime()) return;
        scored.push({
          title: hit.title,
          link: hit.link,
          snippet: hit.snippet,
          ...(date ? { published_date: date } : {}),
          source,
          relevance: askRelevance(stems, hit, rank),
        });
      });
    });
    if (errors.length === intent.sources.length) {
      return {
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
        message: `Every engine failed: ${errors.map((e) => `${e.source} (${e.message})`).join("; ")}`,
      };
    }
    return { ok: true, value: { query: request.query, intent, results: mergeAskResults(scored), errors } };
  };
}

async function searchOne(
  engines: AskEngineOptions["engines"],
  source: string,
  intent: ReturnType<typeof readAskIntent>,
  ctx: EngineContext,
): Promise<EngineResult<Schemas["SearchResult"][]>> {
  const params = {
    query: intent.search_query,
    search_service: source,
    max_results: ASK_PER_ENGINE,
    ...(intent.time_range ? { time_range: intent.time_range } : {}),
  };
  try {
    const r = NEWS_SOURCES.has(source)
      ? await engines.news(params as Schemas["NewsParameters"], ctx)
      : await engines.search(params as Schemas["SearchParameters"], ctx);
    return r.ok ? { ok: true, value: r.value.results } : r;
  } catch (err) {
    // an engine that throws is one failed engine, never the whole call
    return {
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
      message: `The ${source} engine failed: ${(err as Error).message}`,
    };
  }
}
