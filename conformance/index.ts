// The conformance suite's typed API (issue 4). It talks HTTP to any target and imports only the spec module.
export { parseRateLimit, type RateLimitSetting, type StatedLimits } from "./rate-windows.ts";
export { CHECKS, findCheck } from "./registry.ts";
export { REPORT_FILES, writeReports } from "./report/write-reports.ts";
export { runConformance } from "./run-conformance.ts";
export type {
  Basis,
  CheckDefinition,
  CheckResult,
  CheckStatus,
  ConformanceOptions,
  ConformanceResult,
  Exchange,
  Failure,
  ProfileName,
  Severity,
} from "./types.ts";
