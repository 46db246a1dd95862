// The reference's page-fetching engines (issue 5): POST /crawl and POST /sitemap as plain functions over injected
// parts (an http client, a browser renderer, a clock), matching Engines["crawl"] and Engines["sitemap"].
export { forbiddenReason } from "@plumbline-kit/platform/address-policy";
export { type BrowserPool, type BrowserPoolOptions, CHROMIUM_ARGS, createBrowserPool } from "./browser-pool.ts";
export {
  type BrowserRendererOptions,
  createBrowserRenderer,
  type PageRenderer,
  type RenderedPage,
} from "./browser-renderer.ts";
export { type CrawlEngineOptions, createCrawlEngine } from "./crawl-engine.ts";
export type { AddressPolicy, Resolver } from "./guarded-lookup.ts";
export {
  createHttpClient,
  type FetchedResponse,
  type FetchOptions,
  type HttpClient,
  type HttpClientOptions,
} from "./http-client.ts";
export { createScreenshotEngine, type ScreenshotEngineOptions } from "./screenshot-engine.ts";
export { createSitemapEngine, type SitemapEngineOptions } from "./sitemap-engine.ts";
export { DEFAULT_SITEMAP_LIMITS, type SitemapLimits } from "./sitemap-fetch.ts";
export { DEFAULT_USER_AGENT } from "./user-agent.ts";
