// POST /search and POST /news on the reference (interface-spec "POST /search", "POST /news"; issue 14): the
// backend of the search_service value (search-backends.ts) or the local page index, then the rules every backend
// shares: sites and time range filtered locally too (an upstream may ignore them), at most max_results results,
// crawl_results crawled, images when asked for, the request echoed (D-echo).
import type { Contract, Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";
import { echoedParameters } from "@plumbline-kit/platform/request-defaults";
import type { Clock } from "@plumbline-kit/platform/stores";
import { crawlResults } from "./crawl-results.ts";
import { imagesOf, uniqueImages } from "./page-images.ts";
import { type IndexHit, isoDate, type PageIndex, passesSites } from "./page-index.ts";
import { parseQuery, snippetOf } from "./query-terms.ts";
import type { BackendFor } from "./search-backends.ts";
import { timeRangeStart } from "./upstream/time-range.ts";
import { isDayOnly, type TimeRange, type UpstreamAnswer, type UpstreamQuery } from "./upstream/upstream.ts";

type Params = Schemas["SearchParameters"] | Schemas["NewsParameters"];
type Result = Schemas["SearchResult"];

export interface SearchEngineOptions {
  /** the echo's defaults are the document's (D-echo) */
  contract: Contract;
  index: PageIndex;
  backendFor: BackendFor;
  /** the /crawl machinery, for crawl_results (an indexing one: crawled results join the index) */
  crawl: Engines["crawl"];
  clock: Clock;
  /** search_service when the field is omitted or empty (D-default-search-service) */
  defaultService: { search: string; news: string };
}

/** Most images returned for one call. */
const MAX_IMAGES = 50;
/** An indexed page fetched this recently serves crawl_results without a new fetch. */
const RECENT_MS = 10 * 60_000;

/**
 * News from the index: newest first within relevance. Matches fall in four bands by score relative to the best
 * one; within a band the newest page comes first, so a fresh article outranks an old one of about the same relevance
 * but not a much better match.
 */
function newestWithinRelevance(hits: IndexHit[]): IndexHit[] {
  const best = Math.max(...hits.map((h) => h.score), Number.MIN_VALUE);
  const band = (h: IndexHit) => Math.ceil((4 * Math.max(h.score, 0)) / best);
  return [...hits].sort((a, b) => band(b) - band(a) || (b.publishedAt ?? "").localeCompare(a.publishedAt ?? ""));
}

export function createSearchEngines(o: SearchEngineOptions): Pick<Engines, "search" | "news"> {
  async function fromIndex(
    kind: "search" | "news",
    q: UpstreamQuery,
  ): Promise<UpstreamAnswer & { recent: Map<string, string> }> {
    const base = {
      query: q.query,
      language: q.language,
      since: q.since,
      includeSites: q.includeSites,
      excludeSites: q.excludeSites,
    };
    const offset = (q.page - 1) * q.maxResults;
    const hits =
      kind === "news"
        ? newestWithinRelevance(
            await o.index.search({ ...base, publishedOnly: true, limit: Math.max(50, q.maxResults * 4), offset: 0 }),
          ).slice(offset, offset + q.maxResults)
        : await o.index.search({ ...base, limit: q.maxResults, offset });
    const terms = parseQuery(q.query);
    const fresh = new Date(o.clock.now() - RECENT_MS).toISOString();
    return {
      recent: new Map(hits.filter((h) => h.fetchedAt >= fresh).map((h) => [h.url, h.markdown])),
      hits: hits.map((h) => ({
        title: h.title || h.url,
        link: h.url,
        snippet: snippetOf(h.markdown, terms),
        date: h.publishedAt,
      })),
      images: q.image
        ? uniqueImages(
            hits.map((h) => [...h.images, ...imagesOf(h.markdown, h.url)]),
            MAX_IMAGES,
          )
        : [],
    };
  }

  async function run(kind: "search" | "news", params: Params, ctx: EngineContext) {
    const service = params.search_service || o.defaultService[kind];
    const since = timeRangeStart(params.time_range, o.clock.now());
    const q: UpstreamQuery = {
      kind,
      service,
      query: params.query,
      page: "page" in params ? (params.page ?? 1) : 1,
      maxResults: params.max_results ?? 5,
      language: params.language || undefined,
      timeRange: (params.time_range || undefined) as TimeRange | undefined,
      since: since?.toISOString(),
      includeSites: params.include_sites ?? [],
      excludeSites: params.exclude_sites ?? [],
      image: params.image === true,
    };
    const backend = o.backendFor(kind, service);
    let answer: UpstreamAnswer & { recent?: Map<string, string> };
    if (backend) {
      const r = await backend.search(q, ctx.signal);
      if (!r.ok) return r;
      answer = r.value;
    } else answer = await fromIndex(kind, q);
    const hits = answer.hits
      .filter((h) => passesSites(h.link, q.includeSites, q.excludeSites))
      // a result dated before the range is dropped; an undated one cannot be judged and stays
      .filter((h) => !q.since || !h.date || Date.parse(h.date) >= Date.parse(q.since as string))
      .slice(0, q.maxResults);
    let results: Result[] = hits.map((h) => ({
      title: h.title,
      link: h.link,
      snippet: h.snippet,
      // published_date as the live contract writes it (D-result-fields): the day alone when the source gave only a
      // day, else a UTC date-time to the second; `date`, the full ISO string this reference sent before, stays for
      // its earlier clients (a day alone is its midnight, UTC, as Date reads a date without a time)
      ...(h.date ? { date: isoDate(h.date) ?? h.date, published_date: publishedDate(h.date) } : {}),
      // github's kind, stars, language; hackernews's points, num_comments, story_url (D-result-fields)
      ...h.fields,
    }));
    const n = params.crawl_results ?? 0;
    if (n > 0) results = await crawlResults(results, n, o.crawl, ctx, (link) => answer.recent?.get(link) ?? null);
    return {
      ok: true as const,
      value: {
        searchParameters: echoedParameters(
          o.contract,
          kind === "search" ? "SearchParameters" : "NewsParameters",
          params,
        ),
        results,
        ...(q.image ? { images: answer.images.slice(0, MAX_IMAGES) } : {}),
      },
    };
  }

  return {
    search: (params, ctx) => run("search", params, ctx) as Promise<EngineResult<Schemas["SearchResponse"]>>,
    news: (params, ctx) => run("news", params, ctx) as Promise<EngineResult<Schemas["NewsResponse"]>>,
  };
}

/**
 * A date as D-result-fields writes `published_date`: `YYYY-MM-DD` when the source gave the day alone, else
 * `YYYY-MM-DDTHH:MM:SSZ` (UTC, no fraction).
 */
export function publishedDate(iso: string): string {
  if (isDayOnly(iso)) return iso.trim();
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 19)}Z`;
}
