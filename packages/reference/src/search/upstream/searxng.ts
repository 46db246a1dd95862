// A SearXNG instance (its JSON API, `format=json` enabled in the instance's settings.yml `search.formats`), the
// upstream that covers most search_service values: each value names the SearXNG engine(s) asked (ENGINES). Site
// filters travel as `site:` operators (most engines honour them; the results are filtered again locally), the
// language as `language`, the time range as `time_range`; images come from a second query in the `images`
// category. SearXNG pages hold about ten results: the pages covering the wanted slice are fetched in turn.
import type { EngineResult } from "@plumbline-kit/platform/engines";
import { passesSites } from "../page-index.ts";
import {
  cleanUrl,
  fetchUpstreamJson,
  isoOrNull,
  plainText,
  type SearchBackend,
  type UpstreamAnswer,
  type UpstreamHit,
  type UpstreamQuery,
  under,
} from "./upstream.ts";

/** search_service → SearXNG engine names (settings.yml `name`), per operation. */
export const SEARXNG_ENGINES: Record<"search" | "news", Record<string, string>> = {
  search: {
    google: "google",
    bing: "bing",
    bingcn: "bing",
    duckduckgo: "duckduckgo",
    yahoo: "yahoo",
    youtube: "youtube",
    reddit: "reddit",
    github: "github",
    arxiv: "arxiv",
    bilibili: "bilibili",
    imdb: "imdb",
    wikipedia: "wikipedia",
    baidu: "baidu",
    "360": "360search",
    quark: "quark",
    // beyond the interface's list (D-search-engine-values)
    sogou: "sogou",
    yandex: "yandex",
  },
  news: {
    google: "google news",
    bing: "bing news",
    duckduckgo: "duckduckgo news",
    yahoo: "yahoo news",
    reuters: "reuters",
    hackernews: "hackernews",
  },
};

/** Values SearXNG has no engine for: the default engines, restricted to the platform's site. */
export const SEARXNG_SITE_ONLY: Record<string, string> = { x: "x.com", wechat: "mp.weixin.qq.com" };

/** SearXNG's page size; most engines return ten results a page. */
const PAGE = 10;
const MAX_PAGES = 5;

interface SearxResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  publishedDate?: unknown;
  img_src?: unknown;
  thumbnail_src?: unknown;
}

export function createSearxngBackend(o: { baseUrl: string; timeoutMs: number; maxBytes?: number }): SearchBackend & {
  serves(kind: "search" | "news", service: string): boolean;
} {
  const ask = (q: UpstreamQuery, pageno: number, category: string, engines: string | null, text: string) => {
    const url = under(o.baseUrl, "/search");
    const p = url.searchParams;
    p.set("q", text);
    p.set("format", "json");
    p.set("pageno", String(pageno));
    p.set("categories", category);
    if (engines) p.set("engines", engines);
    if (q.language) p.set("language", q.language);
    if (q.timeRange) p.set("time_range", q.timeRange);
    return fetchUpstreamJson("SearXNG", url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
  };

  return {
    name: "SearXNG",
    serves: (kind, service) => service in SEARXNG_ENGINES[kind] || (kind === "search" && service in SEARXNG_SITE_ONLY),
    async search(q): Promise<EngineResult<UpstreamAnswer>> {
      const site = SEARXNG_SITE_ONLY[q.service];
      const include = site ? [site] : q.includeSites;
      const ops = [
        include.length > 0 ? include.map((s) => `site:${s}`).join(" OR ") : "",
        ...q.excludeSites.map((s) => `-site:${s}`),
      ].filter(Boolean);
      const text = [q.query, ...ops].join(" ");
      const engines = site ? null : SEARXNG_ENGINES[q.kind][q.service];
      const category = q.kind === "news" ? "news" : "general";
      const start = (q.page - 1) * q.maxResults;
      const first = Math.floor(start / PAGE) + 1;
      const last = Math.min(first + MAX_PAGES - 1, Math.floor((start + q.maxResults - 1) / PAGE) + 1);
      const hits: UpstreamHit[] = [];
      for (let pageno = first; pageno <= last; pageno++) {
        const r = await ask(q, pageno, category, engines, text);
        if (!r.ok) return r;
        const results = ((r.value as { results?: SearxResult[] })?.results ?? []) as SearxResult[];
        for (const x of results) {
          const link = cleanUrl(x.url);
          if (!link || (site && !passesSites(link, [site]))) continue;
          hits.push({
            title: plainText(x.title) || link,
            link,
            snippet: plainText(x.content),
            date: isoOrNull(x.publishedDate),
          });
        }
        if (results.length === 0) break;
      }
      const skip = start - (first - 1) * PAGE;
      const answer: UpstreamAnswer = { hits: hits.slice(skip, skip + q.maxResults), images: [] };
      if (q.image) {
        const r = await ask(q, 1, "images", null, text);
        if (!r.ok) return r;
        const results = ((r.value as { results?: SearxResult[] })?.results ?? []) as SearxResult[];
        answer.images = results.map((x) => cleanUrl(x.img_src) ?? cleanUrl(x.thumbnail_src)).filter((u) => u !== null);
      }
      return { ok: true, value: answer };
    },
  };
}
