// The package's programmatic API: each command is also a typed function (brief: "Each command is also a typed
// programmatic API exported by the package").

export { benchDeepcrawl, type DeepcrawlBenchOptions, type DeepcrawlBenchResult } from "./bench/deepcrawl-bench.ts";
export {
  benchPageIndex,
  type PageIndexBenchOptions,
  type PageIndexBenchResult,
  type PageIndexStoreResult,
} from "./bench/page-index-bench.ts";
export {
  benchProxy,
  type ProxyBenchOptions,
  type ProxyBenchResult,
  type ProxyBenchRound,
} from "./bench/proxy-bench.ts";
export { benchS3Package, type S3PackageBenchOptions, type S3PackageBenchResult } from "./bench/s3-package-bench.ts";
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
  benchCrawlLoad,
  type CrawlLoadOptions,
  type CrawlLoadResult,
  type CrawlLoadRound,
} from "./load/bench/crawl-load.ts";
export {
  benchCrawlQuality,
  type CrawlQualityOptions,
  type CrawlQualityResult,
  type CrawlQualityRun,
} from "./load/bench/crawl-quality-bench.ts";
export { type BenchResult, benchMockSearch } from "./load/bench/mock-search-bench.ts";
export { benchScreenshot, type ScreenshotBenchResult } from "./load/bench/screenshot-bench.ts";
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
export type { MockAccountInput } from "./mock/memory-accounts.ts";
export type { MockAdmin } from "./mock/mock-state.ts";
export { type HarDocument, type HarEntry, ReplayFileError } from "./mock/replay/har-file.ts";
export type {
  ReplayAnswerView,
  ReplayMatch,
  ReplayReport,
  ReplaySkip,
  ReplaySource,
  ReplayView,
  ReplayViolation,
} from "./mock/replay/replay.ts";
export { DEMO_KEY, type MockOptions, type RunningMock, startMock } from "./mock/start-mock.ts";
export type { Exchange as ProxyExchange, ExchangeSink } from "./proxy/exchange.ts";
export type { PlumblineEntry, PlumblineHar } from "./proxy/har/har-entry.ts";
export { RULES as PROXY_RULES } from "./proxy/judge/rules.ts";
export type { ProxyReport, ReportedViolation } from "./proxy/report/violation-report.ts";
export { type ProxyOptions, type RunningProxy, startProxy } from "./proxy/start-proxy.ts";
export {
  type AuthServerProcessOptions,
  type RunningAuthServer,
  startAuthServer,
} from "./reference/auth/start-auth-server.ts";
export type {
  DeepcrawlLimits,
  DeepcrawlPage,
  DeepcrawlPageHook,
  DeepcrawlSettings,
} from "./reference/deepcrawl/deepcrawl-options.ts";
export type { S3PackageStoreOptions } from "./reference/deepcrawl/s3-package-store-options.ts";
export { createPageIndex } from "./reference/search/create-page-index.ts";
export { deepcrawlIndexSink, indexingCrawl } from "./reference/search/index-feeds.ts";
export { type IndexSitesOptions, type IndexSitesResult, indexSites } from "./reference/search/index-sites.ts";
export type { IndexedPage, IndexHit, IndexQuery, PageIndex } from "./reference/search/page-index.ts";
export { PUBLIC_SEARCH_APIS, type SearchUpstreams } from "./reference/search/search-backends.ts";
export { type ReferenceOptions, type RunningReference, startReference } from "./reference/start-reference.ts";
export * from "./spec/index.ts";
