// Batches (interface-spec "Batch response", "POST /crawl"; D-crawl-batch). The summary arithmetic is judged over
// every batch answer of the run, not only this family's own calls.
import { answerFailures, judgeAnswer } from "../answer-judge.ts";
import { describe, failure, json, status } from "../check-helpers.ts";
import { batchCallsProbe } from "../probes/batch-calls.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";

type BatchBody = { results?: unknown[] };

const entriesMatch: CheckDefinition = {
  id: "batch-entries-match-request",
  title: "A search or news batch answers one entry per request item, in order, each echoing its item",
  severity: "critical",
  section: "POST /search; POST /news; Batch response",
  basis: { kind: "contract" },
  operations: ["search", "news"],
  probes: [batchCallsProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    for (const b of (await ctx.probe(batchCallsProbe)).filter((x) => x.operationId !== "crawl")) {
      const ex = b.measured.result;
      const entries = json<BatchBody>(ex)?.results;
      if (status(ex) !== 200 || !Array.isArray(entries)) {
        failures.push(failure(`${b.operationId} batch gave no entries`, [ex], "200 with results[]", describe(ex)));
        continue;
      }
      for (const v of judgeAnswer(ctx.contract, ex, ["batch-entries"]))
        failures.push(failure(`${b.operationId} batch: ${v.message}`, [ex], v.expected, v.actual));
    }
    return { failures };
  },
};

function isBatchAnswer(ex: Exchange): boolean {
  return (ex.operationId === "search" || ex.operationId === "news") && Array.isArray(ex.sent) && status(ex) === 200;
}

const summaryArithmetic: CheckDefinition = {
  id: "batch-summary-arithmetic",
  title: "Every batch summary adds up: total, successful, failed and totalCost match the entries",
  severity: "critical",
  section: "Batch response",
  basis: { kind: "contract" },
  operations: ["search", "news"],
  phase: "traffic",
  async run(ctx) {
    const batches = ctx.http.exchanges.filter(isBatchAnswer);
    // the one arithmetic (spec/checks/batch-rules.ts): an entry whose cost is not a number is named by
    // batch-entry-cost, never summed as NaN nor counted as 0
    const failures = answerFailures(ctx, ["batch-summary", "batch-entry-cost"], isBatchAnswer, () => "");
    return { failures, notes: [`${batches.length} batch answers judged`] };
  },
};

const crawlBatch: CheckDefinition = {
  id: "crawl-batch-urls",
  title: "A crawl batch answers an array of crawl responses, each for a requested URL, none more often than asked",
  severity: "major",
  section: "POST /crawl",
  basis: { kind: "decision", decision: "D-crawl-batch" },
  operations: ["crawl"],
  probes: [batchCallsProbe],
  async run(ctx) {
    const b = (await ctx.probe(batchCallsProbe)).find((x) => x.operationId === "crawl");
    if (!b) return { failures: [] };
    const ex = b.measured.result;
    const body = json<unknown>(ex);
    if (status(ex) !== 200 || !Array.isArray(body))
      return { failures: [failure("crawl batch did not answer an array", [ex], "200 with an array", describe(ex))] };
    const failures = judgeAnswer(ctx.contract, ex, ["crawl-batch-urls"]).map((v) =>
      failure(v.message, [ex], v.expected, v.actual),
    );
    return { failures };
  },
};

export const BATCH_CHECKS = [entriesMatch, summaryArithmetic, crawlBatch];
