// Shared probe: one batch of each batch-capable operation, each between two balance readings (interface-spec
// "Batch response"; D-charging: batches are charged entry by entry).
import { type Measured, measureCharge } from "../check-helpers.ts";
import type { Exchange, Probe } from "../types.ts";
import { withReachableUrls } from "./target-urls.ts";

export interface BatchCall {
  operationId: "search" | "news" | "crawl";
  body: Array<Record<string, unknown>>;
  measured: Measured<Exchange>;
}

export const BATCHES: Array<Omit<BatchCall, "measured">> = [
  {
    operationId: "search",
    body: [
      { query: "plumbline batch first", max_results: 2 },
      { query: "plumbline batch second", max_results: 2, crawl_results: 1 },
      { query: "plumbline batch third", max_results: 1 },
    ],
  },
  {
    operationId: "news",
    body: [
      { query: "plumbline news first", max_results: 1 },
      { query: "plumbline news second", max_results: 2 },
    ],
  },
  {
    operationId: "crawl",
    body: [{ url: "https://example.com/plumbline-first" }, { url: "https://example.org/plumbline-second" }],
  },
];

export const batchCallsProbe: Probe<BatchCall[]> = {
  id: "batch-calls",
  usesFixtureSite: true,
  cost: (c, _alt, scope) =>
    BATCHES.filter((b) => scope.has(b.operationId)).reduce(
      (sum, b) => sum + c.prices.requestCredits(b.operationId, b.body),
      0,
    ),
  async run(ctx) {
    const out: BatchCall[] = [];
    for (const b of BATCHES.filter((x) => ctx.scope.has(x.operationId))) {
      const path = ctx.contract.operation(b.operationId).path;
      const body = await withReachableUrls(ctx, b.body);
      const measured = await measureCharge(ctx, "probe:batch-calls", () =>
        ctx.http.call("probe:batch-calls", "POST", path, { body }),
      );
      out.push({ ...b, body, measured });
    }
    return out;
  },
};
