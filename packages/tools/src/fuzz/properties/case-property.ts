// The two input properties (issue 6 "Properties"): valid input gets the documented success (or 402) with an answer
// that validates and costs its price; invalid input gets its labelled 400/422, names the field, costs nothing.
// Every case also must not hang, drop the connection or answer 5xx.
import fc from "fast-check";
import { PropertyFailure } from "../checks/check-failure.ts";
import { type CaseEnv, runCase } from "../checks/run-case.ts";
import { type Waiver, waiverFor } from "../checks/waivers.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import type { InFlight } from "./in-flight.ts";

export interface CaseStats {
  cases: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  throttled: number;
  /** cases whose failures a waiver covers, by waiver id */
  waived: Record<string, number>;
  /** performance.now() of the first failing case (before shrinking) */
  firstFailureAt: number | null;
}

export function emptyStats(): CaseStats {
  return { cases: 0, byOperation: {}, byStatus: {}, throttled: 0, waived: {}, firstFailureAt: null };
}

export function mergeStats(into: CaseStats, from: CaseStats): CaseStats {
  into.cases += from.cases;
  into.throttled += from.throttled;
  if (from.firstFailureAt !== null)
    into.firstFailureAt = Math.min(into.firstFailureAt ?? Infinity, from.firstFailureAt);
  for (const [k, v] of Object.entries(from.byOperation)) into.byOperation[k] = (into.byOperation[k] ?? 0) + v;
  for (const [k, v] of Object.entries(from.byStatus)) into.byStatus[k] = (into.byStatus[k] ?? 0) + v;
  for (const [k, v] of Object.entries(from.waived)) into.waived[k] = (into.waived[k] ?? 0) + v;
  return into;
}

export function caseProperty(
  cases: fc.Arbitrary<FuzzCase>,
  env: CaseEnv,
  stats: CaseStats,
  waivers: readonly Waiver[] = [],
  inFlight?: InFlight,
): fc.IAsyncPropertyWithHooks<[FuzzCase]> {
  return fc.asyncProperty(cases, async (c) => {
    const run = runCase(env, c);
    const r = await (inFlight ? inFlight.track(run) : run);
    stats.cases++;
    stats.byOperation[c.operationId] = (stats.byOperation[c.operationId] ?? 0) + 1;
    const status = String(r.status ?? "none");
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    if (r.throttled) stats.throttled++;
    const waiver = waiverFor(waivers, c, r.failures);
    if (waiver) stats.waived[waiver.id] = (stats.waived[waiver.id] ?? 0) + 1;
    else if (r.failures.length > 0) {
      stats.firstFailureAt ??= performance.now();
      throw new PropertyFailure(r.failures);
    }
  });
}
