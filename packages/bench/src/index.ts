// plumbline's benchmarks (`plumbline bench …`, docs/performance.md): repository only, never published.
export { benchDeepcrawl, type DeepcrawlBenchOptions, type DeepcrawlBenchResult } from "./deepcrawl-bench.ts";
export {
  benchCrawlLoad,
  type CrawlLoadOptions,
  type CrawlLoadResult,
  type CrawlLoadRound,
} from "./load/crawl-load.ts";
export {
  benchCrawlQuality,
  type CrawlQualityOptions,
  type CrawlQualityResult,
  type CrawlQualityRun,
} from "./load/crawl-quality-bench.ts";
export { type BenchResult, benchMockSearch } from "./load/mock-search-bench.ts";
export { benchScreenshot, type ScreenshotBenchResult } from "./load/screenshot-bench.ts";
export {
  benchPageIndex,
  type PageIndexBenchOptions,
  type PageIndexBenchResult,
  type PageIndexStoreResult,
} from "./page-index-bench.ts";
export {
  benchProxy,
  type ProxyBenchOptions,
  type ProxyBenchResult,
  type ProxyBenchRound,
} from "./proxy-bench.ts";
export { benchS3Package, type S3PackageBenchOptions, type S3PackageBenchResult } from "./s3-package-bench.ts";
