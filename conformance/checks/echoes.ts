// What trending, crawl and extract answers echo of their request, and trending's max_results, judged over every such
// answer of the run (interface-spec "Trending result and response", "Crawl result and crawl response", "Extract
// response"; D-echo). Search and news have theirs in search.ts.
import { failure, json, status } from "../check-helpers.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

type Params = Record<string, unknown>;

/** Successful single-body answers of `operationId` with the body sent. */
function answered(ctx: RunContext, operationId: string): Array<{ sent: Params; ex: Exchange }> {
  return ctx.http.exchanges
    .filter((e) => e.operationId === operationId && status(e) === 200 && e.sent && !Array.isArray(e.sent))
    .map((ex) => ({ sent: ex.sent as Params, ex }));
}

const parametersEcho: CheckDefinition = {
  id: "parameters-echo",
  title: "trendingParameters echoes the request; crawlParameters.url and extractParameters.url are the URL asked",
  severity: "minor",
  section: "Trending result and response; Crawl result and crawl response; Extract response",
  basis: { kind: "decision", decision: "D-echo" },
  operations: ["trending", "crawl", "extract"],
  phase: "traffic",
  async run(ctx) {
    const failures: Failure[] = [];
    for (const { sent, ex } of answered(ctx, "trending")) {
      const echo = json<{ trendingParameters?: Params }>(ex)?.trendingParameters;
      for (const [k, v] of Object.entries(sent))
        if (JSON.stringify(echo?.[k]) !== JSON.stringify(v))
          failures.push(
            failure(`trendingParameters.${k} is not echoed`, [ex], JSON.stringify(v), JSON.stringify(echo?.[k])),
          );
    }
    for (const op of ["crawl", "extract"]) {
      for (const { sent, ex } of answered(ctx, op)) {
        const url = json<Record<string, { url?: unknown } | undefined>>(ex)?.[`${op}Parameters`]?.url;
        if (url !== sent.url)
          failures.push(failure(`${op}Parameters.url is not the URL asked`, [ex], String(sent.url), String(url)));
      }
    }
    return { failures };
  },
};

const trendingMax: CheckDefinition = {
  id: "trending-max-results",
  title: "A trending answer never holds more than the max_results asked",
  severity: "minor",
  section: "POST /trending",
  basis: { kind: "contract" },
  operations: ["trending"],
  phase: "traffic",
  async run(ctx) {
    const failures: Failure[] = [];
    for (const { sent, ex } of answered(ctx, "trending")) {
      const n = json<{ results?: unknown[] }>(ex)?.results?.length ?? 0;
      if (typeof sent.max_results === "number" && n > sent.max_results)
        failures.push(
          failure(`${n} results for max_results ${sent.max_results}`, [ex], `≤ ${sent.max_results}`, `${n}`),
        );
    }
    return { failures };
  },
};

export const ECHO_CHECKS = [parametersEcho, trendingMax];
