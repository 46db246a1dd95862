// Synthetic /crawl (interface-spec, POST /crawl): the page's title and Markdown content (D-crawl-content) with
// the metadata of D-crawl-metadata; `fetched_at` comes from the injected clock. variability "max" nulls some
// nullable metadata fields and adds a property the contract does not name (metadata is open).

import type { Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { countWords } from "@plumbline-kit/platform/word-count";
import { createRng } from "./rng.ts";
import { sitePage } from "./site-page.ts";
import { targetFailure } from "./target-status.ts";

type CrawlMetadata = Schemas["CrawlMetadata"];
const NULLABLE = ["description", "language", "published_time", "site_name", "canonical_url"] as const;

export function createCrawlEngine(now: () => Date) {
  return async (
    request: Schemas["CrawlRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<Schemas["CrawlResponse"]>> => {
    const failure = targetFailure("crawl", request.url);
    if (failure) return failure;
    const page = sitePage(ctx.seed, request.url);
    const metadata: CrawlMetadata = {
      description: page.description,
      language: page.language,
      published_time: page.publishedTime,
      site_name: page.siteName,
      canonical_url: page.canonicalUrl,
      status_code: 200,
      content_type: "text/html",
      word_count: countWords(page.markdown),
      fetched_at: now().toISOString(),
      rendered: false,
    };
    if (ctx.variability === "max") {
      const rng = createRng(ctx.seed, "crawl-extras", request);
      for (const field of NULLABLE) if (rng.chance(0.5)) metadata[field] = null;
      if (rng.chance(0.7)) metadata.author = rng.chance(0.5) ? null : "Staff writer";
      if (rng.chance(0.5)) metadata.reading_time_minutes = Math.max(1, Math.round(countWords(page.markdown) / 230));
    }
    return {
      ok: true,
      value: {
        crawlParameters: { url: request.url },
        results: { title: page.title, link: request.url, content: page.markdown, metadata },
      },
    };
  };
}
