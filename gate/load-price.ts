// The most one request of a load scenario can cost, so the gate can pick a load rate its credit budget covers.

import type { Scenario } from "../load/index.ts";
import { baseBody } from "../spec/bounds.ts";
import type { Contract } from "../spec/index.ts";

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
