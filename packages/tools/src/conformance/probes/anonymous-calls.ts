// Shared probe: every operation that requires a credential, called without one (interface-spec "Authentication"
// 1; rule 3 of "What the service does": an unauthenticated call to a paid operation can receive 402).
import { baseBody } from "@plumbline-kit/contract/bounds";
import type { Exchange, Probe } from "../types.ts";

export interface AnonymousCall {
  operationId: string;
  paid: boolean;
  exchange: Exchange;
}

export const anonymousCallsProbe: Probe<AnonymousCall[]> = {
  id: "anonymous-calls",
  cost: () => 0,
  async run(ctx) {
    const out: AnonymousCall[] = [];
    for (const op of ctx.contract.contractOperations.filter(
      (o) => o.auth === "required" && ctx.scope.has(o.operationId),
    )) {
      const body = op.requestSchema ? baseBody(op) : undefined;
      const exchange = await ctx.http.call("probe:anonymous-calls", op.method.toUpperCase(), op.path, {
        body,
        auth: "none",
      });
      out.push({ operationId: op.operationId, paid: op.pricing !== null, exchange });
    }
    return out;
  },
};
