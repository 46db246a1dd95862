// load/: load scripts against any target of the contract (a client: it imports only the spec module).
export { type CompareOptions, type CompareResult, type CompareRun, runCompare } from "./compare/run-compare.ts";
export { checkAccounting, readBalance } from "./credit-accounting.ts";
export { type LoadAccount, type LoadAccountOptions, runLoadAccount } from "./export/load-account.ts";
export { type ExportFormat, type LoadExport, type LoadExportOptions, runLoadExport } from "./export/run-export.ts";
export type { LoadOptions } from "./load-options.ts";
export { createLimiter, type Limiter, type LoadRateLimitSetting, parseLoadRateLimit } from "./rate-limits.ts";
export { REPORT_FILES, writeLoadReport } from "./report/write-report.ts";
export { type LoadRun, runLoad } from "./run-load.ts";
export { listScenarios, readScenario, type Scenario } from "./scenario-file.ts";
export { isLoopbackHost } from "./target-guard.ts";
export { evaluateThresholds } from "./threshold-evaluate.ts";
export { parseThreshold, type Threshold } from "./threshold-expression.ts";
export { parseThresholdSet, readThresholdSet, type ThresholdSet } from "./threshold-file.ts";
export type * from "./types.ts";
