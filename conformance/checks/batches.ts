// Batches (interface-spec "Batch response", "POST /crawl"; D-crawl-batch). The summary arithmetic is judged over
// every batch answer of the run, not only this family's own calls.

import { plural } from "../../spec/report/plural.ts";
import { describe, failure, json, status } from "../check-helpers.ts";
import { batchCallsProbe } from "../probes/batch-calls.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";

type Entry = { success?: unknown; cost?: unknown; data?: { searchParameters?: { query?: unknown } } };
type BatchBody = { results?: Entry[]; summary?: Record<string, unknown> };

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
      if (entries.length !== b.body.length)
        failures.push(
          failure(
            `${b.operationId} batch of ${b.body.length} answered ${plural(entries.length, "entry", "entries")}`,
            [ex],
            `${b.body.length}`,
            `${entries.length}`,
          ),
        );
      entries.forEach((e, i) => {
        const query = e.data?.searchParameters?.query;
        if (e.success === true && query !== b.body[i]?.query)
          failures.push(
            failure(
              `${b.operationId} batch entry ${i} answers another item`,
              [ex],
              String(b.body[i]?.query),
              String(query),
            ),
          );
      });
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
    const failures: Failure[] = [];
    const batches = ctx.http.exchanges.filter(isBatchAnswer);
    for (const ex of batches) {
      const body = json<BatchBody>(ex);
      const entries = body?.results ?? [];
      const expected = {
        total: (ex.sent as unknown[]).length,
        successful: entries.filter((e) => e.success === true).length,
        failed: entries.filter((e) => e.success !== true).length,
        totalCost: entries.reduce((s, e) => s + (typeof e.cost === "number" ? e.cost : Number.NaN), 0),
      };
      for (const [k, v] of Object.entries(expected)) {
        if (body?.summary?.[k] !== v)
          failures.push(failure(`summary.${k} does not add up`, [ex], `${v}`, JSON.stringify(body?.summary?.[k])));
      }
    }
    return { failures, notes: [`${batches.length} batch answers judged`] };
  },
};

const crawlBatch: CheckDefinition = {
  id: "crawl-batch-urls",
  title: "A crawl batch answers an array of crawl responses, each for a requested URL, none twice",
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
    const asked = new Set(b.body.map((x) => x.url));
    const urls = body.map((r) => (r as { crawlParameters?: { url?: unknown } })?.crawlParameters?.url);
    const failures: Failure[] = [];
    urls.forEach((u, i) => {
      if (!asked.has(u as string))
        failures.push(
          failure(`crawl batch result ${i} is for an URL not asked`, [ex], [...asked].join(" | "), String(u)),
        );
      if (urls.indexOf(u) !== i) failures.push(failure(`crawl batch answers ${String(u)} twice`, [ex]));
    });
    return { failures };
  },
};

export const BATCH_CHECKS = [entriesMatch, summaryArithmetic, crawlBatch];
