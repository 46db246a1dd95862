// What trending, crawl and extract answers echo of their request, and trending's max_results, judged over every such
// answer of the run (interface-spec "Trending result and response", "Crawl result and crawl response", "Extract
// response"; D-echo). Search and news have theirs in search.ts.
import { answerFailures } from "../answer-judge.ts";
import type { CheckDefinition } from "../types.ts";

const judgedOps = new Set(["trending", "crawl", "extract"]);

const parametersEcho: CheckDefinition = {
  id: "parameters-echo",
  title: "trendingParameters echoes the request; crawlParameters.url and extractParameters.url are the URL asked",
  severity: "minor",
  section: "Trending result and response; Crawl result and crawl response; Extract response",
  basis: { kind: "decision", decision: "D-echo" },
  operations: ["trending", "crawl", "extract"],
  phase: "traffic",
  run: async (ctx) => ({
    failures: answerFailures(
      ctx,
      ["parameters-echo"],
      (ex) => judgedOps.has(ex.operationId ?? ""),
      () => "",
    ),
  }),
};

const trendingMax: CheckDefinition = {
  id: "trending-max-results",
  title: "A trending answer never holds more than the max_results asked",
  severity: "minor",
  section: "POST /trending",
  basis: { kind: "contract" },
  operations: ["trending"],
  phase: "traffic",
  run: async (ctx) => ({
    failures: answerFailures(
      ctx,
      ["max-results"],
      (ex) => ex.operationId === "trending",
      () => "",
    ),
  }),
};

export const ECHO_CHECKS = [parametersEcho, trendingMax];
