// The most one request of a load scenario can cost, so the gate can pick a load rate its credit budget covers.

import type { Contract } from "@plumbline-kit/contract";
import { baseBody } from "@plumbline-kit/contract/bounds";
import type { Scenario } from "../load/index.ts";

/** The most each request of the scenario can cost, with its weight (flows: the deepcrawl submit). */
function weightedPrices(contract: Contract, scenario: Scenario): Array<{ credits: number; weight: number }> {
  const priceOf = (operation: string, example?: string, body?: unknown) => {
    const op = contract.contractOperations.find((o) => o.operationId === operation);
    if (!op?.pricing) return 0;
    const sent = body ?? (example ? op.requestExamples[example] : undefined) ?? baseBody(op);
    return contract.prices.requestCredits(operation, sent);
  };
  if (scenario.flow) return [{ credits: priceOf("deepcrawl", scenario.flow.example, scenario.flow.body), weight: 1 }];
  return scenario.requests.map((r) => ({
    credits: r.invalid || r.rawBody || r.auth === "none" ? 0 : priceOf(r.operation, r.example, r.body),
    weight: r.weight ?? 1,
  }));
}

/**
 * What one request of the scenario costs on average at most (each request priced as if every entry succeeds,
 * weighted as the mix draws them): the gate picks the rate its credit budget covers with it, and the run's credit
 * cap (runLoad's maxCredits) holds back whatever the draw would take past the budget.
 */
export function averageRequestCredits(contract: Contract, scenario: Scenario): number {
  const prices = weightedPrices(contract, scenario);
  const weights = prices.reduce((n, p) => n + p.weight, 0);
  return Math.max(0.01, prices.reduce((n, p) => n + p.credits * p.weight, 0) / Math.max(1, weights));
}

export function maxRequestCredits(contract: Contract, scenario: Scenario): number {
  const priceOf = (operation: string, example?: string, body?: unknown) => {
    const op = contract.contractOperations.find((o) => o.operationId === operation);
    if (!op?.pricing) return 0;
    const sent = body ?? (example ? op.requestExamples[example] : undefined) ?? baseBody(op);
    return contract.prices.requestCredits(operation, sent);
  };
  const requests = scenario.requests.map((r) => (r.invalid || r.rawBody ? 0 : priceOf(r.operation, r.example, r.body)));
  const flow = scenario.flow ? priceOf("deepcrawl", scenario.flow.example, scenario.flow.body) : 0;
  return Math.max(1, flow, ...requests);
}

/**
 * The load stage's arrival rate: the credits left over what the stage runs for, planned over the seconds left or a
 * quarter of the gate's box (at most 60 s), whichever is longer. A slow machine, whose earlier stages took longer,
 * gets the same rate for a shorter run and spends less; never a faster one (3 s left of a 20 s box once sent 135
 * crawls a second at a reference, a load the plan never meant to judge its answer times at).
 */
export function plannedLoadRate(o: {
  budget: number;
  perRequest: number;
  /** the seconds the stage runs, warm-up included */
  stageSeconds: number;
  /** the gate's whole box, --time */
  boxSeconds: number;
}): number {
  const plannedSeconds = Math.max(o.stageSeconds, Math.min(60, o.boxSeconds / 4));
  return Math.round((o.budget / (plannedSeconds * o.perRequest)) * 100) / 100;
}
