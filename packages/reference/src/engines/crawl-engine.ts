// POST /crawl (interface-spec "POST /crawl"): fetch one public URL and return its title and body as clean text,
// Markdown per D-crawl-content, with the metadata of D-crawl-metadata. `enableFallback` (default true) renders a page
// whose static HTML holds little text and runs script in headless Chromium and extracts again (metadata.rendered:
// true).
// Failures are values (style 6); their codes are chosen in target-failure.ts.
import type { Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import type { Clock } from "@plumbline-kit/platform/stores";
import { countWords } from "@plumbline-kit/platform/word-count";
import type { PageRenderer } from "./browser-renderer.ts";
import { bodyKind, mediaType, pageBody } from "./content-type.ts";
import type { ExtractedPage } from "./html-extract.ts";
import type { FetchedResponse, HttpClient } from "./http-client.ts";
import { createInlineParser, type PageParser } from "./parse/parse-pool.ts";
import { binaryFailure, fetchFailure, statusFailure, unreadableFailure } from "./target-failure.ts";

export interface CrawlEngineOptions {
  http: HttpClient;
  /** the browser for `enableFallback`; without one the static text stands */
  renderer?: PageRenderer | null;
  clock: Clock;
  /** fewer words than this in the static text of a page that runs script call for the browser (default 30) */
  fallbackMinWords?: number;
  /** where pages are parsed: the reference's worker pool (parse-pool.ts); in this thread when absent */
  parser?: PageParser;
}

type CrawlResponse = Schemas["CrawlResponse"];

const ACCEPT = "text/html,application/xhtml+xml;q=0.9,text/*;q=0.8,application/json;q=0.7,*/*;q=0.5";

interface Page {
  link: string;
  title: string;
  content: string;
  metadata: Omit<Schemas["CrawlMetadata"], "status_code" | "content_type" | "word_count" | "fetched_at">;
}

export function createCrawlEngine(options: CrawlEngineOptions) {
  const minWords = options.fallbackMinWords ?? 30;
  const parser = options.parser ?? createInlineParser();

  const asPage = (page: ExtractedPage, url: string, rendered: boolean): Page => ({
    link: url,
    title: page.title,
    content: page.markdown,
    metadata: { ...page.metadata, rendered, images: page.images },
  });

  /**
   * The browser's version of the page when it holds more text than the static one; the static one otherwise. Only
   * a page with little static text that runs script is rendered: without script the browser sees the same text.
   * Each version comes with its word count (metadata.word_count), counted once.
   */
  async function withFallback(
    page: Page,
    words: number,
    scripted: boolean,
    res: FetchedResponse,
    ctx: EngineContext,
  ): Promise<EngineResult<{ page: Page; words: number }>> {
    const kept = { ok: true, value: { page, words } } as const;
    if (!options.renderer || words >= minWords || !scripted) return kept;
    const r = await options.renderer.render(res.url, ctx.signal);
    // a page that takes the browser to a refused address fails as that target would (issue 12, D-target-refusal);
    // any other failure of the best-effort render leaves the static text standing
    if (!r.ok) return r.code === "PLB_TARGET_FORBIDDEN" ? fetchFailure(r) : kept;
    const extracted = await parser.extract(r.value.html, r.value.url, res.headers["content-language"], ctx.signal);
    if (!extracted.ok) return kept;
    const rendered = asPage(extracted.value, r.value.url, true);
    const renderedWords = countWords(rendered.content);
    return renderedWords > words ? { ok: true, value: { page: rendered, words: renderedWords } } : kept;
  }

  return async function crawl(
    request: Schemas["CrawlRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<CrawlResponse>> {
    const fetched = await options.http.fetch(request.url, { signal: ctx.signal, accept: ACCEPT });
    if (!fetched.ok) return fetchFailure(fetched);
    const res = fetched.value;
    if (res.status >= 300) return statusFailure(res.status, res.url, "crawl");
    const type = mediaType(res.headers["content-type"]);
    const kind = bodyKind(type, res.body);
    if (kind === "binary") return binaryFailure(type, res.url);
    // decoded and parsed in the pool (issue 12): the event loop hands over the bytes
    const read = await parser.page(pageBody(res, type, kind), ctx.signal);
    if (!read.ok) return read;
    // bytes that do not read as text under their declared type and charset are refused as binary (D-target-refusal)
    if (read.value.kind === "unreadable") return unreadableFailure(type, res.url);
    let page: Page =
      read.value.kind === "html"
        ? asPage(read.value.page, res.url, false)
        : { link: res.url, title: read.value.title, content: read.value.content, metadata: { rendered: false } };
    let words = countWords(page.content);
    if (read.value.kind === "html" && request.enableFallback !== false) {
      const fallback = await withFallback(page, words, read.value.runsScript, res, ctx);
      if (!fallback.ok) return fallback;
      ({ page, words } = fallback.value);
    }
    const metadata: Schemas["CrawlMetadata"] = {
      description: null,
      language: res.headers["content-language"]?.split(",")[0].trim() || null,
      published_time: null,
      site_name: null,
      canonical_url: null,
      ...page.metadata,
      status_code: res.status,
      content_type: type || (kind === "html" ? "text/html" : "text/plain"),
      word_count: words,
      fetched_at: new Date(options.clock.now()).toISOString(),
    };
    return {
      ok: true,
      value: {
        crawlParameters: { url: request.url },
        results: { title: page.title, link: page.link, content: page.content, metadata },
      },
    };
  };
}
