// Shared probe: every boundary case of spec/bounds.ts sent once, for both published bound sets (D-bound-sets).
// Cases that both sets judge alike test the contract; the few where they differ tell which set a target enforces.
// Cases rejected by both sets are sent between two balance readings per operation: rejected calls are free
// (D-charging).
import { type BoundCase, boundCases } from "../../spec/bounds.ts";
import type { Contract } from "../../spec/index.ts";
import { type Measured, measureCharge } from "../check-helpers.ts";
import type { OperationScope } from "../operation-scope.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";
import { withReachableCase } from "./target-urls.ts";

export interface SentCase {
  case: BoundCase;
  primaryValid: boolean;
  altValid: boolean;
  exchange: Exchange;
}

export interface BoundProbe {
  cases: SentCase[];
  /** per operation: the charge measured around its cases rejected by both sets */
  rejectedCharges: Array<{ operationId: string; measured: Measured<Exchange[]> }>;
}

interface PlannedCase {
  case: BoundCase;
  primaryValid: boolean;
  altValid: boolean;
}

function plan(primary: Contract, alt: Contract, scope: OperationScope): PlannedCase[] {
  const seen = new Map<string, BoundCase>();
  for (const c of [...boundCases(primary), ...boundCases(alt)]) {
    if (!scope.has(c.operationId)) continue;
    const key = `${c.operationId} ${JSON.stringify(c.body)}`;
    if (!seen.has(key)) seen.set(key, c);
  }
  return [...seen.values()].map((c) => ({
    case: c,
    primaryValid: primary.validators.checkBody(c.operationId, c.body).ok,
    altValid: alt.validators.checkBody(c.operationId, c.body).ok,
  }));
}

function pathOf(contract: Contract, operationId: string): string {
  return contract.operation(operationId).path;
}

export const boundCasesProbe: Probe<BoundProbe> = {
  id: "bound-cases",
  usesFixtureSite: true,
  cost(primary, alt, scope) {
    // an upper bound: every case either set accepts is charged at its contract price
    return plan(primary, alt, scope)
      .filter((p) => p.primaryValid || p.altValid)
      .reduce((sum, p) => sum + primary.prices.requestCredits(p.case.operationId, p.case.body), 0);
  },
  async run(ctx: RunContext) {
    const planned = plan(ctx.contract, ctx.altContract, ctx.scope);
    const cases: SentCase[] = [];
    const rejectedCharges: BoundProbe["rejectedCharges"] = [];
    const ops = [...new Set(planned.map((p) => p.case.operationId))];
    for (const operationId of ops) {
      const mine = planned.filter((p) => p.case.operationId === operationId);
      const path = pathOf(ctx.contract, operationId);
      const rejected = mine.filter((p) => !p.primaryValid && !p.altValid);
      const measured = await measureCharge(ctx, "probe:bound-cases", async () => {
        const out: Exchange[] = [];
        for (const p of rejected) {
          const exchange = await ctx.http.call("probe:bound-cases", "POST", path, { body: p.case.body });
          cases.push({ ...p, exchange });
          out.push(exchange);
        }
        return out;
      });
      rejectedCharges.push({ operationId, measured });
      for (const p of mine.filter((m) => m.primaryValid || m.altValid)) {
        // accepted cases are really served: on a target that fetches pages, their URLs are the fixture site's
        const body = await withReachableCase(ctx, p.case.body, p.case.field);
        const exchange = await ctx.http.call("probe:bound-cases", "POST", path, { body });
        cases.push({ ...p, exchange });
      }
      ctx.progress(`  bound cases of ${operationId}: ${mine.length} sent`);
    }
    return { cases, rejectedCharges };
  },
};
