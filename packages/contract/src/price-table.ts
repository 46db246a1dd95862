// The price table (interface-spec "What the service does"; x-pricing of each operation; D-charging).
import type { OperationSpec, Pricing } from "./operations.ts";

export interface PriceTable {
  /** Pricing of a paid operation, or null for a free one. */
  get(operationId: string): Pricing | null;
  /** Credits of one request entry (a single body, or one item of a batch), surcharges included. */
  entryCredits(operationId: string, entry: unknown): number;
  /** Credits of a whole request body: the sum over its entries when it is a batch. */
  requestCredits(operationId: string, body: unknown): number;
  /** Every paid operation, for listings and docs. */
  paid(): Array<{ operationId: string; method: string; path: string } & Pricing>;
}

export function createPriceTable(operations: OperationSpec[]): PriceTable {
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  const get = (id: string): Pricing | null => byId.get(id)?.pricing ?? null;
  const entryCredits = (id: string, entry: unknown): number => {
    const pricing = get(id);
    if (!pricing) return 0;
    let credits = pricing.credits;
    const s = pricing.surcharge;
    if (s && entry !== null && typeof entry === "object") {
      const units = (entry as Record<string, unknown>)[s.parameter];
      // "A crawl_results value N adds N page crawls to the bill" (interface-spec "Limits" 3)
      if (typeof units === "number" && units > 0) credits += units * (get(s.perUnitOperation)?.credits ?? 0);
    }
    return credits;
  };
  return {
    get,
    entryCredits,
    requestCredits(id, body) {
      if (Array.isArray(body)) return body.reduce<number>((sum, e) => sum + entryCredits(id, e), 0);
      return entryCredits(id, body);
    },
    paid() {
      return operations
        .filter((o) => o.pricing)
        .map((o) => ({
          operationId: o.operationId,
          method: o.method.toUpperCase(),
          path: o.path,
          ...(o.pricing as Pricing),
        }));
    },
  };
}
