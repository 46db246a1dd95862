// What feeds the index (issue 14): an indexing crawl adds what it fetched and passes failures through untouched;
// the deepcrawl sink adds pages with text and skips failed ones; a store error never fails the fetch.

import type { EngineContext, Engines } from "@plumbline-kit/platform/engines";
import { describe, expect, it } from "vitest";
import { deepcrawlIndexSink, indexingCrawl } from "./index-feeds.ts";
import type { IndexedPage, PageIndex } from "./page-index.ts";

const ctx: EngineContext = { requestId: "t", variability: "normal", seed: 0 };

function memoryIndex(fail = false): PageIndex & { pages: IndexedPage[] } {
  const pages: IndexedPage[] = [];
  return {
    pages,
    add: async (p) => {
      if (fail) throw new Error("disk full");
      pages.push(p);
    },
    search: async () => [],
    count: async () => pages.length,
  };
}

const crawl: Engines["crawl"] = async (r) =>
  r.url.endsWith("/missing")
    ? { ok: false, code: "PLB_TARGET_NOT_FOUND", message: "404" }
    : {
        ok: true,
        value: {
          crawlParameters: r,
          results: {
            title: "A page",
            link: r.url,
            content: "# A page\n\ntext",
            metadata: {
              description: "d",
              language: "de",
              published_time: "2026-11-01T00:00:00Z",
              site_name: null,
              canonical_url: null,
              fetched_at: "2026-11-26T00:00:00.000Z",
              images: ["https://a.test/picture.png"],
            },
          },
        },
      };

describe("indexingCrawl", () => {
  it("indexes a fetched page with its metadata, not a failure, and answers as the crawl did", async () => {
    const index = memoryIndex();
    const wrapped = indexingCrawl(crawl, index);
    const ok = await wrapped({ url: "https://a.test/page" }, ctx);
    expect(ok).toEqual(await crawl({ url: "https://a.test/page" }, ctx));
    const missing = await wrapped({ url: "https://a.test/missing" }, ctx);
    expect(missing).toEqual({ ok: false, code: "PLB_TARGET_NOT_FOUND", message: "404" });
    expect(index.pages).toEqual([
      {
        url: "https://a.test/page",
        title: "A page",
        markdown: "# A page\n\ntext",
        fetchedAt: "2026-11-26T00:00:00.000Z",
        publishedAt: "2026-11-01T00:00:00Z",
        language: "de",
        description: "d",
        images: ["https://a.test/picture.png"],
      },
    ]);
  });

  it("a store error is reported, and the crawl still answers", async () => {
    const errors: string[] = [];
    const wrapped = indexingCrawl(crawl, memoryIndex(true), (err, url) => errors.push(`${url}: ${err}`));
    expect((await wrapped({ url: "https://a.test/page" }, ctx)).ok).toBe(true);
    expect(errors).toEqual(["https://a.test/page: Error: disk full"]);
  });
});

describe("deepcrawlIndexSink (the deepcrawl worker's onPage)", () => {
  it("adds pages with text, with their metadata, and skips failed pages", async () => {
    const index = memoryIndex();
    const onPage = deepcrawlIndexSink(index);
    await onPage({ url: "https://a.test/x", title: null, markdown: null, fetchedAt: "2026-11-26T00:00:00Z" });
    await onPage({
      url: "https://a.test/y",
      title: null,
      markdown: "# Y",
      fetchedAt: "2026-11-26T00:00:00Z",
      metadata: { published_time: "2026-11-02", language: "fr", description: 7, images: ["https://a.test/y.png", 3] },
    });
    expect(index.pages).toEqual([
      {
        url: "https://a.test/y",
        title: "https://a.test/y",
        markdown: "# Y",
        fetchedAt: "2026-11-26T00:00:00Z",
        publishedAt: "2026-11-02",
        language: "fr",
        description: null,
        images: ["https://a.test/y.png"],
      },
    ]);
  });
});
