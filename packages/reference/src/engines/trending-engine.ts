// POST /trending in the reference (interface-spec "POST /trending"; D-trending-platforms): `github` from
// github.com/trending, `hackernews` from the Hacker News API, both at configurable base URLs (tests and
// deployments point them at stand-ins or mirrors). The echo and the item count follow the decisions the mock
// follows (D-echo, trendingLimit). An upstream that fails or answers nonsense is a 502, uncharged (D-charging).
import type { Contract, Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { trendingLimit, trendingPlatforms } from "@plumbline-kit/platform/request-defaults";
import type { HttpClient } from "./http-client.ts";
import { createInlineParser, type PageParser } from "./parse/parse-pool.ts";
import { type HnItem, hnResult } from "./trending/hackernews-trending.ts";

export interface TrendingEngineOptions {
  contract: Contract;
  /** the client for upstreams the operator configured (they may sit on a private network) */
  http: HttpClient;
  /** default https://github.com (its /trending page) */
  githubUrl?: string;
  /** default https://hacker-news.firebaseio.com (its /v0 API) */
  hackernewsUrl?: string;
  /** item fetches in flight at once for hackernews (default 8) */
  concurrency?: number;
  /** where GitHub's page is parsed: the reference's worker pool, with its caps (issue 38); in this thread when absent */
  parser?: PageParser;
}

type Result = EngineResult<Schemas["TrendingResponse"]>;

const upstreamFailure = (message: string): Result => ({ ok: false, code: "PLB_UPSTREAM_FAILED", message });

export function createTrendingEngine(o: TrendingEngineOptions) {
  const githubUrl = (o.githubUrl ?? "https://github.com").replace(/\/+$/, "");
  const hnUrl = (o.hackernewsUrl ?? "https://hacker-news.firebaseio.com").replace(/\/+$/, "");
  const concurrency = o.concurrency ?? 8;
  const parser = o.parser ?? createInlineParser();

  /** `seen.why`: the last reason a fetch failed (an answer past the client's size cap names the cap) */
  async function getJson<T>(url: string, ctx: EngineContext, seen: { why: string }): Promise<T | null> {
    const r = await o.http.fetch(url, { signal: ctx.signal, accept: "application/json" });
    if (!r.ok) seen.why = `: ${r.message ?? r.code}`;
    if (!r.ok || r.value.status !== 200) return null;
    try {
      return JSON.parse(r.value.body.toString("utf8")) as T;
    } catch {
      return null;
    }
  }

  async function github(limit: number, ctx: EngineContext) {
    const r = await o.http.fetch(`${githubUrl}/trending`, { signal: ctx.signal, accept: "text/html" });
    if (!r.ok) return upstreamFailure(`GitHub trending could not be read: ${r.message ?? r.code}`);
    if (r.value.status !== 200) return upstreamFailure(`GitHub trending answered ${r.value.status}`);
    const parsed = await parser.githubTrending(r.value.body, `${githubUrl}/`, limit, ctx.signal);
    if (!parsed.ok) return parsed;
    const results = parsed.value;
    if (results.length === 0 && limit > 0) return upstreamFailure("GitHub trending listed no repositories");
    return results;
  }

  async function hackernews(limit: number, ctx: EngineContext) {
    const seen = { why: "" };
    const ids = await getJson<number[]>(`${hnUrl}/v0/topstories.json`, ctx, seen);
    if (!Array.isArray(ids)) return upstreamFailure(`Hacker News top stories could not be read${seen.why}`);
    // a few spare ids make up for dead or deleted items without reading the whole list
    const wanted = ids.filter(Number.isSafeInteger).slice(0, limit + Math.ceil(limit / 4) + 2);
    const items: Array<HnItem | null> = new Array(wanted.length).fill(null);
    let next = 0;
    const worker = async () => {
      while (next < wanted.length && !ctx.signal?.aborted) {
        const i = next++;
        items[i] = await getJson<HnItem>(`${hnUrl}/v0/item/${wanted[i]}.json`, ctx, seen);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, wanted.length) }, worker));
    if (wanted.length > 0 && items.every((i) => i === null))
      return upstreamFailure(`Hacker News items could not be read${seen.why}`);
    return items.flatMap((i) => hnResult(i) ?? []).slice(0, limit);
  }

  return async (request: Schemas["TrendingRequest"], ctx: EngineContext): Promise<Result> => {
    const platform = request.search_service;
    if (!trendingPlatforms(o.contract).includes(platform)) {
      return { ok: false, code: "PLB_BAD_VALUE", message: `Unknown trending platform "${platform}"` };
    }
    const limit = trendingLimit(o.contract, request);
    const results = platform === "github" ? await github(limit, ctx) : await hackernews(limit, ctx);
    if (!Array.isArray(results)) return results;
    return { ok: true, value: { trendingParameters: structuredClone(request), results } };
  };
}
