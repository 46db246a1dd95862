// The mock's synthetic engines: deterministic stand-ins for the search backends, fetcher and browser the
// reference plugs into the same platform (reference/platform/engines.ts). Every answer is a pure function of
// ctx.seed and the request (rng.ts), except crawl's `fetched_at` and deepcrawl's `fetchedAt`, which read the
// injected clock. Failures follow the `/status/NNN` and `__fail_502__` convention of target-status.ts.

import type { Contract } from "@plumbline-kit/contract";
import type { Engines, SiteCrawler } from "@plumbline-kit/platform/engines";
import { createAskEngine } from "./ask-engine.ts";
import { createCrawlEngine } from "./crawl-engine.ts";
import { createExtractEngine } from "./extract-engine.ts";
import { createScreenshotEngine } from "./screenshot-engine.ts";
import { createSearchEngines } from "./search-engine.ts";
import { createSiteCrawler } from "./site-crawler.ts";
import { syntheticSitemap } from "./sitemap-engine.ts";
import { createTrendingEngine } from "./trending-engine.ts";

export { FAIL_QUERY, targetStatus } from "./target-status.ts";

export interface SyntheticEngineOptions {
  contract: Contract;
  /** the clock behind crawl metadata `fetched_at` and deepcrawl `fetchedAt` */
  now?: () => Date;
}

export function createSyntheticEngines(options: SyntheticEngineOptions): Engines {
  const now = options.now ?? (() => new Date());
  return {
    ...createSearchEngines(options.contract, now),
    crawl: createCrawlEngine(now),
    screenshot: createScreenshotEngine(options.contract),
    sitemap: syntheticSitemap,
    trending: createTrendingEngine(options.contract),
    extract: createExtractEngine(),
    // the live contract's POST /ask (D-ask-intent); the seed has no such operation, so nothing routes to it there
    ...(options.contract.findOperation("ask") ? { ask: createAskEngine(options.contract, now) } : {}),
  };
}

export function createSyntheticSiteCrawler(options: SyntheticEngineOptions): SiteCrawler {
  return createSiteCrawler(options.now ?? (() => new Date()));
}
