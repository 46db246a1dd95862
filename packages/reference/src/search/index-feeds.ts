// What feeds the page index (issue 14 "Embedded default": crawl, search-result crawling and deepcrawl all feed
// it): a wrapper that indexes every page a crawl engine fetched successfully, and the page sink a deepcrawl worker
// calls with each page it fetched. Indexing never fails the fetch that fed it: a store error is reported and the
// crawl's answer stands.
import type { Schemas } from "@plumbline-kit/contract";
import type { Engines } from "@plumbline-kit/platform/engines";
import type { IndexedPage, PageIndex } from "./page-index.ts";

export type IndexErrorReporter = (err: unknown, url: string) => void;

const report: IndexErrorReporter = (err, url) => console.error(`page index: could not index ${url}`, err);

export function pageFromCrawl(r: Schemas["CrawlResult"]): IndexedPage {
  const m = (r.metadata ?? {}) as Partial<Schemas["CrawlMetadata"]>;
  return {
    url: r.link,
    title: r.title,
    markdown: r.content,
    fetchedAt: m.fetched_at ?? new Date().toISOString(),
    publishedAt: m.published_time ?? null,
    language: m.language ?? null,
    description: m.description ?? null,
    images: Array.isArray(m.images) ? m.images : [],
  };
}

/** The crawl engine, indexing each page it returns. */
export function indexingCrawl(
  crawl: Engines["crawl"],
  index: PageIndex,
  onError: IndexErrorReporter = report,
): Engines["crawl"] {
  return async (request, ctx) => {
    const r = await crawl(request, ctx);
    if (r.ok) await index.add(pageFromCrawl(r.value.results)).catch((err) => onError(err, r.value.results.link));
    return r;
  };
}

/** A page as a deepcrawl worker hands it over (its `onPage` hook). */
export interface DeepcrawlPage {
  url: string;
  title: string | null;
  markdown: string | null;
  fetchedAt: string;
  metadata?: Record<string, unknown> | null;
}

/**
 * The deepcrawl worker's `onPage` hook: `onPage: deepcrawlIndexSink(index)` adds every page it fetched with
 * text to the index (a failed page, without Markdown, is skipped).
 */
export function deepcrawlIndexSink(
  index: PageIndex,
  onError: IndexErrorReporter = report,
): (page: DeepcrawlPage) => Promise<void> {
  return async (page) => {
    if (!page.markdown) return;
    const m = page.metadata ?? {};
    const str = (v: unknown) => (typeof v === "string" && v ? v : null);
    await index
      .add({
        url: page.url,
        title: page.title ?? page.url,
        markdown: page.markdown,
        fetchedAt: page.fetchedAt,
        publishedAt: str(m.published_time),
        language: str(m.language),
        description: str(m.description),
        images: Array.isArray(m.images) ? m.images.filter((u): u is string => typeof u === "string") : [],
      })
      .catch((err) => onError(err, page.url));
  };
}
