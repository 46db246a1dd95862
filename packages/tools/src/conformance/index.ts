// The conformance suite's typed API (issue 4). It talks HTTP to any target and imports only the spec module.
export { exportFixtures, type FixtureExport, type FixtureExportOptions } from "./fixtures/fixture-export.ts";
export { type FixtureCanary, type FixtureManifest, readFixtureManifest } from "./fixtures/fixture-manifest.ts";
export { type FixtureServer, type FixtureServerOptions, startFixtureServer } from "./fixtures/fixture-server.ts";
export { parseRateLimit, type RateLimitSetting, type StatedLimits } from "./rate-windows.ts";
export { CHECKS, findCheck } from "./registry.ts";
export { REPORT_FILES, writeReports } from "./report/write-reports.ts";
export { runConformance } from "./run-conformance.ts";
export { PRECONDITION_KINDS, SKIP_KINDS, type SkipKind, type SkipTally } from "./skip-reasons.ts";
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
