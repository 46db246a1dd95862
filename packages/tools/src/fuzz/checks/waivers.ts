// Known issues of a target, waived by name: a case whose every failure is one of a waiver's checks, and that the
// waiver says shows its issue, is counted under the waiver's id instead of failing the run. Waivers are listed in
// the report, and each should come with a replay that proves it still reproduces, so it is removed once fixed.
import type { FuzzCase } from "../fuzz-case.ts";
import type { CheckFailure, CheckId } from "./check-failure.ts";

export interface Waiver {
  id: string;
  description: string;
  /** where the issue lives, for whoever fixes it */
  location: string;
  checks: CheckId[];
  /** true when the case is one that shows the issue */
  applies(c: FuzzCase): boolean;
}

/** The waiver that covers every failure of the case, if any. */
export function waiverFor(waivers: readonly Waiver[], c: FuzzCase, failures: CheckFailure[]): Waiver | null {
  if (failures.length === 0) return null;
  return waivers.find((w) => failures.every((f) => w.checks.includes(f.check)) && w.applies(c)) ?? null;
}
