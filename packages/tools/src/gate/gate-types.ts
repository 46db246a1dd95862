// The gate's records: what each stage did, as the JUnit file and the HTML page render them. A stage's cases are the
// one report record of every client (contract/src/report/check-record.ts).
import type { CheckRecord } from "@plumbline-kit/contract/report/check-record";

export type StageName = "conform" | "fuzz" | "load";
export const STAGES: StageName[] = ["conform", "fuzz", "load"];

export interface StageOutcome {
  stage: StageName;
  /** 0 passed, 1 a check, property or threshold failed, 2 the stage could not run; null: not run */
  exitCode: 0 | 1 | 2 | null;
  seconds: number;
  /** credits of the given key the stage spent (balance before minus after), when both were read */
  creditsSpent: number | null;
  /** why the stage could not run, or was not run */
  error?: string;
  /** the stage's own report page, relative to the gate's report folder */
  report: string | null;
  summary: string;
  /** a conformance check, a fuzz property, a load threshold each */
  cases: CheckRecord[];
}

export interface GateResult {
  exitCode: 0 | 1 | 2;
  target: string;
  startedAt: string;
  seconds: number;
  budgetCredits: number | null;
  creditsSpent: number | null;
  stages: StageOutcome[];
  reportDir: string | null;
  /** why the gate could not start (bad options); its stages did not run */
  error?: string;
}
