export type { GateResult, StageName, StageOutcome } from "./gate-types.ts";
export { type GateOptions, runGate } from "./run-gate.ts";
