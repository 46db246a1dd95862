// POST /sitemap (interface-spec "POST /sitemap" 1-4):
//   sitemap (default): the URLs the site's sitemaps declare for the requested host (sitemap-discover.ts); a site
//     that publishes none, or none for this host, falls back to the same-host links of the given page.
//   all: every link of the given page, other hosts included; no sitemap is read.
// Only the given page and sitemap documents are fetched, never the pages they list. Failures are values.
import type { Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { bodyKind, decodeText, mediaType } from "./content-type.ts";
import { sameHostAs } from "./host-filter.ts";
import type { HttpClient } from "./http-client.ts";
import { createInlineParser, type PageParser } from "./parse/parse-pool.ts";
import { discoverSitemapUrls } from "./sitemap-discover.ts";
import { DEFAULT_SITEMAP_LIMITS, type SitemapLimits } from "./sitemap-fetch.ts";
import { fetchFailure, statusFailure } from "./target-failure.ts";

export interface SitemapEngineOptions {
  http: HttpClient;
  limits?: Partial<SitemapLimits>;
  /** where pages and sitemaps are parsed: the reference's worker pool; in this thread when absent */
  parser?: PageParser;
}

type SitemapResponse = Schemas["SitemapResponse"];

export function createSitemapEngine(options: SitemapEngineOptions) {
  const limits: SitemapLimits = { ...DEFAULT_SITEMAP_LIMITS, ...options.limits };
  const parser = options.parser ?? createInlineParser();

  /** The links of the given page; an HTML page only (a PDF or an image has none to give). */
  async function linksOfPage(url: string, ctx: EngineContext): Promise<EngineResult<string[]>> {
    const r = await options.http.fetch(url, { signal: ctx.signal, accept: "text/html,application/xhtml+xml" });
    if (!r.ok) return fetchFailure(r);
    if (r.value.status >= 300) return statusFailure(r.value.status, r.value.url, "sitemap");
    const type = mediaType(r.value.headers["content-type"]);
    const kind = bodyKind(type, r.value.body);
    if (kind !== "html") return { ok: true, value: [] };
    const html = decodeText(r.value.body, r.value.headers["content-type"], kind);
    return parser.links(html, r.value.url, ctx.signal);
  }

  return async function sitemap(
    request: Schemas["SitemapRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<SitemapResponse>> {
    const cap = (links: string[]) => ({ ok: true as const, value: { links: links.slice(0, limits.maxUrls) } });
    if ((request.type ?? "sitemap") === "all") {
      const links = await linksOfPage(request.url, ctx);
      return links.ok ? cap(links.value) : links;
    }
    const onHost = sameHostAs(request.url);
    const found = await discoverSitemapUrls(options.http, request.url, limits, ctx.signal, parser);
    const declared = found.urls.filter(onHost);
    if (declared.length > 0) return cap(declared);
    // no sitemap (or none for this host): the page's own links, same host only (rule 2); when even robots.txt was
    // unreachable, this fetch reports why
    const links = await linksOfPage(request.url, ctx);
    return links.ok ? cap(links.value.filter(onHost)) : links;
  };
}
