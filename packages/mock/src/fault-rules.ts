// Per-operation fault rules set through the admin API (WireMock's "faults", k6 chaos tests): a status, a latency
// or a dropped connection, with a probability and an optional number of times.
import { randomBytes } from "node:crypto";
import type { Rng } from "./engines/rng.ts";

export interface FaultRuleInput {
  /** an operationId, or "*" for every contract operation */
  operationId?: string;
  status?: number;
  latencyMs?: number;
  fault?: "reset" | "hang";
  /** 0..1, default 1 */
  probability?: number;
  /** how many requests the rule applies to; absent: until removed */
  times?: number;
}

export interface FaultRule extends Required<Pick<FaultRuleInput, "operationId" | "probability">> {
  id: string;
  status?: number;
  latencyMs?: number;
  fault?: "reset" | "hang";
  remaining: number | null;
  hits: number;
}

export interface FaultRules {
  add(input: FaultRuleInput): FaultRule;
  remove(id: string): boolean;
  list(): FaultRule[];
  size(): number;
  clear(): void;
  /** The rules that fire for this request (each consumes one of its `times`); `rng` is drawn only when rules exist. */
  fire(operationId: string, rng: () => Rng): FaultRule[];
}

export function createFaultRules(): FaultRules {
  let rules: FaultRule[] = [];
  return {
    add(input) {
      const rule: FaultRule = {
        id: `fault_${randomBytes(4).toString("hex")}`,
        operationId: input.operationId ?? "*",
        probability: input.probability ?? 1,
        status: input.status,
        latencyMs: input.latencyMs,
        fault: input.fault,
        remaining: input.times ?? null,
        hits: 0,
      };
      rules.push(rule);
      return rule;
    },
    remove(id) {
      const before = rules.length;
      rules = rules.filter((r) => r.id !== id);
      return rules.length < before;
    },
    list: () => rules.map((r) => ({ ...r })),
    size: () => rules.length,
    clear() {
      rules = [];
    },
    fire(operationId, makeRng) {
      const fired: FaultRule[] = [];
      if (rules.length === 0) return fired;
      const rng = makeRng();
      for (const r of rules) {
        if (r.operationId !== "*" && r.operationId !== operationId) continue;
        if (r.remaining !== null && r.remaining <= 0) continue;
        if (!rng.chance(r.probability)) continue;
        if (r.remaining !== null) r.remaining -= 1;
        r.hits += 1;
        fired.push(r);
      }
      return fired;
    },
  };
}
