// The package's programmatic API: each command is also a typed function (brief: "Each command is also a typed
// programmatic API exported by the package").
export { CHECKS, type ConformanceOptions, type ConformanceResult, runConformance } from "./conformance/index.ts";
export {
  type CorpusEntry,
  type FuzzOptions,
  type FuzzReport,
  type FuzzResult,
  runFuzz,
} from "./fuzz/index.ts";
export { benchCrawlLoad, type CrawlLoadOptions, type CrawlLoadResult } from "./load/bench/crawl-load.ts";
export { type BenchResult, benchMockSearch } from "./load/bench/mock-search-bench.ts";
export {
  type CompareResult,
  type LoadOptions,
  type LoadReport,
  type LoadRun,
  parseThreshold,
  runCompare,
  runLoad,
} from "./load/index.ts";
export type { MockAccountInput } from "./mock/memory-accounts.ts";
export type { MockAdmin } from "./mock/mock-state.ts";
export { DEMO_KEY, type MockOptions, type RunningMock, startMock } from "./mock/start-mock.ts";
export { type ReferenceOptions, type RunningReference, startReference } from "./reference/start-reference.ts";
export * from "./spec/index.ts";
