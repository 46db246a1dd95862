// @plumbline-kit/tools: the tools that judge any implementation over HTTP: the conformance suite, the fuzzer, load
// runs and their exports, the CI gate, the validating proxy, spec diff, and the paying client. Each command is also
// a typed function here (runConformance, runFuzz, runLoad, runGate, startProxy, diffSpecs, ...).
export { createPayingFetch, type PayingFetchOptions } from "./client/paying-fetch.ts";
export {
  CHECKS,
  type ConformanceOptions,
  type ConformanceResult,
  exportFixtures,
  type FixtureExport,
  type FixtureExportOptions,
  type FixtureManifest,
  type FixtureServer,
  readFixtureManifest,
  runConformance,
  type SkipKind,
  type SkipTally,
  startFixtureServer,
} from "./conformance/index.ts";
export {
  type CorpusEntry,
  type FuzzOptions,
  type FuzzReport,
  type FuzzResult,
  runFuzz,
} from "./fuzz/index.ts";
export { type GateOptions, type GateResult, runGate } from "./gate/index.ts";
export {
  type CompareResult,
  type LoadAccount,
  type LoadAccountOptions,
  type LoadExport,
  type LoadExportOptions,
  type LoadOptions,
  type LoadReport,
  type LoadRun,
  parseThreshold,
  runCompare,
  runLoad,
  runLoadAccount,
  runLoadExport,
} from "./load/index.ts";
export type { Exchange as ProxyExchange, ExchangeSink } from "./proxy/exchange.ts";
export type { PlumblineEntry, PlumblineHar } from "./proxy/har/har-entry.ts";
export { RULES as PROXY_RULES } from "./proxy/judge/rules.ts";
export type { ProxyReport, ReportedViolation } from "./proxy/report/violation-report.ts";
export { type ProxyOptions, type RunningProxy, startProxy } from "./proxy/start-proxy.ts";
export * from "./spec/diff/index.ts";
