// Synthetic POST /ask of the live contract: the request read as D-ask-intent says (the platform's readAskIntent),
// each chosen engine searched with the mock's own synthetic search (news for hackernews), each hit scored for
// relevance from the share of the keywords it carries and its rank, deterministically for a seed, then merged and
// ranked as D-ask-relevance says. An engine named in `Prefer: fail-engines=…` fails and is listed in `errors` (the
// call is still charged); when every engine fails the call is a 502, uncharged (D-ask-charging).
import type { Contract, LiveSchemas, Schemas } from "@plumbline-kit/contract";
import { mergeAskResults, readAskIntent } from "@plumbline-kit/platform/ask-intent";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { createRng } from "./rng.ts";
import { createSearchEngines } from "./search-engine.ts";
import { queryWords } from "./text.ts";

type AskResult = LiveSchemas["AskResult"];
/** hits asked of each engine */
const PER_ENGINE = 6;

export function createAskEngine(contract: Contract, now: () => Date) {
  const engines = createSearchEngines(contract, now);
  return async (
    request: LiveSchemas["AskRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<LiveSchemas["AskResponse"]>> => {
    const intent = readAskIntent(request.query);
    const failing = new Set((ctx as { failEngines?: string[] }).failEngines ?? []);
    const words = queryWords(intent.search_query);
    const scored: AskResult[] = [];
    const errors: Array<{ source: string; message: string }> = [];
    for (const source of intent.sources) {
      if (failing.has(source)) {
        errors.push({ source, message: `The ${source} engine did not answer in time` });
        continue;
      }
      const params = {
        query: intent.search_query,
        search_service: source,
        max_results: PER_ENGINE,
        ...(intent.time_range ? { time_range: intent.time_range } : {}),
      };
      const answer =
        source === "hackernews"
          ? await engines.news(params as Schemas["NewsParameters"], ctx)
          : await engines.search(params as Schemas["SearchParameters"], ctx);
      if (!answer.ok) {
        errors.push({ source, message: answer.message ?? "The engine failed" });
        continue;
      }
      answer.value.results.forEach((hit, rank) => {
        const text = `${hit.title} ${hit.snippet}`.toLowerCase();
        const share = words.filter((w) => text.includes(w)).length / words.length;
        const rng = createRng(ctx.seed, "ask", source, hit.link);
        const relevance = 0.25 + 0.6 * share + 0.2 * rng.float() - 0.04 * rank;
        const published = (hit as { published_date?: string }).published_date;
        scored.push({
          title: hit.title,
          link: hit.link,
          snippet: hit.snippet,
          ...(published ? { published_date: published } : {}),
          source,
          relevance,
        });
      });
    }
    if (errors.length === intent.sources.length) {
      return {
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
        message: `Every engine failed: ${errors.map((e) => e.source).join(", ")}`,
      };
    }
    return { ok: true, value: { query: request.query, intent, results: mergeAskResults(scored), errors } };
  };
}
