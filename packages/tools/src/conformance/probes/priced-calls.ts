// Shared probe: one call of every paid operation (its first request example, from the document), each between
// two balance readings, so the price each one charges is measured (interface-spec "What the service does").
// Deepcrawl is measured by the deepcrawl probe instead, to start one task per run, not two.
import { baseBody } from "@plumbline-kit/contract/bounds";
import { type Measured, measureCharge } from "../check-helpers.ts";
import type { Exchange, Probe } from "../types.ts";
import { withReachableUrls } from "./target-urls.ts";

export interface PricedCall {
  operationId: string;
  body: unknown;
  expected: number;
  measured: Measured<Exchange>;
}

const EXCLUDED = new Set(["deepcrawl"]);

export const pricedCallsProbe: Probe<PricedCall[]> = {
  id: "priced-calls",
  usesFixtureSite: true,
  cost: (c, _alt, scope) =>
    c.contractOperations
      .filter((o) => o.pricing && !EXCLUDED.has(o.operationId) && scope.has(o.operationId))
      .reduce((sum, o) => sum + c.prices.entryCredits(o.operationId, baseBody(o)), 0),
  async run(ctx) {
    const out: PricedCall[] = [];
    for (const op of ctx.contract.contractOperations) {
      if (!op.pricing || EXCLUDED.has(op.operationId) || !ctx.scope.has(op.operationId)) continue;
      const body = await withReachableUrls(ctx, baseBody(op));
      const measured = await measureCharge(ctx, "probe:priced-calls", () =>
        ctx.http.call("probe:priced-calls", op.method.toUpperCase(), op.path, { body }),
      );
      out.push({
        operationId: op.operationId,
        body,
        expected: ctx.contract.prices.entryCredits(op.operationId, body),
        measured,
      });
    }
    return out;
  },
};
