// What the platform asks of an implementation's engines. The reference plugs in real ones (fetching, Chromium,
// search backends); the mock plugs in synthetic ones. Expected failures are values, never throws (style 6).
import type { ErrorCode, LiveSchemas, Schemas } from "@plumbline-kit/contract";

export type EngineResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** a catalogue code: PLB_TARGET_NOT_FOUND, PLB_TARGET_GONE, PLB_UPSTREAM_FAILED, PLB_TARGET_FORBIDDEN, … */
      code: ErrorCode;
      message?: string;
    };

/** What a handler knows about the call an engine serves. */
export interface EngineContext {
  requestId: string;
  /** `max` asks for everything the contract allows (nulls, absent optionals, extra properties, empty arrays) */
  variability: "normal" | "max";
  /** seed for deterministic synthetic data (mock); ignored by real engines */
  seed: number;
  signal?: AbortSignal;
}

export interface ScreenshotImage {
  contentType: "image/png" | "image/jpeg" | "image/webp";
  body: Buffer;
}

export interface Engines {
  search(params: Schemas["SearchParameters"], ctx: EngineContext): Promise<EngineResult<Schemas["SearchResponse"]>>;
  news(params: Schemas["NewsParameters"], ctx: EngineContext): Promise<EngineResult<Schemas["NewsResponse"]>>;
  crawl(request: Schemas["CrawlRequest"], ctx: EngineContext): Promise<EngineResult<Schemas["CrawlResponse"]>>;
  screenshot(request: Schemas["ScreenshotRequest"], ctx: EngineContext): Promise<EngineResult<ScreenshotImage>>;
  sitemap(request: Schemas["SitemapRequest"], ctx: EngineContext): Promise<EngineResult<Schemas["SitemapResponse"]>>;
  trending(request: Schemas["TrendingRequest"], ctx: EngineContext): Promise<EngineResult<Schemas["TrendingResponse"]>>;
  extract(request: Schemas["ExtractRequest"], ctx: EngineContext): Promise<EngineResult<Schemas["ExtractResponse"]>>;
  /** POST /ask of the live contract (D-ask-intent, D-ask-relevance, D-ask-charging): an implementation without it
   * answers /ask from the document (the mock's document executor) */
  ask?(request: LiveSchemas["AskRequest"], ctx: EngineContext): Promise<EngineResult<LiveSchemas["AskResponse"]>>;
}

/** One page of a deepcrawl, as the packager writes it (D-deepcrawl-zip). */
export interface CrawledPage {
  url: string;
  title: string | null;
  /** HTTP status of the fetch; 0 when unreachable */
  status: number;
  /** Markdown content; null when the page failed */
  markdown: string | null;
  fetchedAt: string;
}

/** Site discovery + page fetching for deepcrawl; the worker drives it step by step. */
export interface SiteCrawler {
  /** The URLs a deepcrawl of `url` visits (`sitemap`: declared in the sitemap; `all`: every findable link). */
  discover(url: string, type: "sitemap" | "all", ctx: EngineContext): Promise<EngineResult<string[]>>;
  fetchPage(url: string, ctx: EngineContext): Promise<CrawledPage>;
}
