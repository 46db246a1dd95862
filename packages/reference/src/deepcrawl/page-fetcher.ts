// One page of a deepcrawl: converted exactly as POST /crawl converts it (the crawl engine, through its public
// function), and, for `all`, the links of the HTML the engine fetched. The engine's own fetch is observed through
// a tapping http client (AsyncLocalStorage keeps each page's observation apart under concurrency), so a page is
// fetched once for both its text and its links.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { bodyKind, mediaType } from "../engines/content-type.ts";
import type { FetchedResponse, HttpClient } from "../engines/index.ts";
import { createInlineParser, type PageParser } from "../engines/parse/parse-pool.ts";

export type CrawlFn = (
  request: Schemas["CrawlRequest"],
  ctx: EngineContext,
) => Promise<EngineResult<Schemas["CrawlResponse"]>>;

export interface FetchedPage {
  url: string;
  /** HTTP status of the page (0 when unreachable) */
  status: number;
  title: string | null;
  /** null when the page could not be converted */
  markdown: string | null;
  metadata?: Record<string, unknown>;
  /** why the page has no document */
  error?: string;
  /** absolute http(s) links of the page's HTML (only when asked) */
  links: string[];
}

export interface PageFetcher {
  /** the client to build the crawl engine over: its first fetch inside fetch() below is observed */
  http: HttpClient;
  fetch(url: string, ctx: EngineContext, withLinks: boolean, crawl: CrawlFn): Promise<FetchedPage>;
}

/** `parser`: where the links are read (the reference's worker pool, issue 12); in this thread when absent */
export function createPageFetcher(http: HttpClient, parser: PageParser = createInlineParser()): PageFetcher {
  const seen = new AsyncLocalStorage<{ first?: FetchedResponse }>();
  const tapped: HttpClient = {
    async fetch(url, options) {
      const r = await http.fetch(url, options);
      const store = seen.getStore();
      if (store && !store.first && r.ok) store.first = r.value;
      return r;
    },
    close: () => http.close(),
  };
  return {
    http: tapped,
    async fetch(url, ctx, withLinks, crawl) {
      const store: { first?: FetchedResponse } = {};
      const r = await seen.run(store, () => crawl({ url }, ctx));
      const res = store.first;
      let links: string[] = [];
      if (withLinks && res && res.status < 300) {
        const type = mediaType(res.headers["content-type"]);
        if (bodyKind(type, res.body) === "html") {
          const read = await parser.pageLinks(
            {
              body: res.body,
              contentType: res.headers["content-type"],
              mediaType: type,
              bodyKind: "html",
              url: res.url,
            },
            ctx.signal,
          );
          if (read.ok) links = read.value;
        }
      }
      if (!r.ok) return { url, status: res?.status ?? 0, title: null, markdown: null, error: r.message, links };
      const page = r.value.results;
      return {
        url,
        status: res?.status ?? 200,
        title: page.title,
        markdown: page.content,
        metadata: page.metadata as Record<string, unknown> | undefined,
        links,
      };
    },
  };
}
