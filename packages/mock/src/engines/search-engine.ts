// Synthetic /search and /news (interface-spec, POST /search, POST /news): searchParameters echoes the request
// with its defaults filled in (D-echo), results has max_results hits (schema default when absent) from the page's positions, every
// link honours include_sites / exclude_sites, the first crawl_results hits carry `content`, and `image: true`
// adds `images`. variability "max" also returns zero-result pages, extra properties on hits (D-search-result-id:
// an opaque `id`) and empty `images`, all of which the contract allows.

import type { Contract, Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";
import { echoedParameters } from "@plumbline-kit/platform/request-defaults";
import { resultFields } from "./result-fields.ts";
import { createRng, type Rng } from "./rng.ts";
import { buildHit, hitContent, type SearchKind } from "./search-result.ts";
import { pickHost, siteFilter } from "./site-filter.ts";
import { queryFailure } from "./target-status.ts";
import { queryWords, siteName, slug } from "./text.ts";
import { NEWS_HOSTS, SERVICE_HOSTS, WEB_HOSTS } from "./vocabulary.ts";

type Params = Schemas["SearchParameters"] | Schemas["NewsParameters"];
type Response = Schemas["SearchResponse"] | Schemas["NewsResponse"];
type SearchResult = Schemas["SearchResult"];

export function createSearchEngines(
  contract: Contract,
  now: () => Date = () => new Date(),
): Pick<Engines, "search" | "news"> {
  const search = searchEngine(contract, "search", now);
  const news = searchEngine(contract, "news", now);
  // one body serves both: the response echoes whichever parameters form it was given
  return {
    search: (params, ctx) => search(params, ctx) as Promise<EngineResult<Schemas["SearchResponse"]>>,
    news: (params, ctx) => news(params, ctx) as Promise<EngineResult<Schemas["NewsResponse"]>>,
  };
}

function searchEngine(contract: Contract, kind: SearchKind, now: () => Date) {
  const schema = kind === "search" ? "SearchParameters" : "NewsParameters";
  const props = contract.document.components?.schemas?.[schema]?.properties as Record<string, { default?: unknown }>;
  const defaultMax = Number(props?.max_results?.default ?? 5);

  return async (params: Params, ctx: EngineContext): Promise<EngineResult<Response>> => {
    const failure = queryFailure(params.query);
    if (failure) return failure;
    const p = params as Partial<Schemas["SearchParameters"]> & { query: string };
    const max = p.max_results ?? defaultMax;
    const page = p.page ?? 1;
    const rng = createRng(ctx.seed, kind, params);
    const words = queryWords(params.query);
    const filter = siteFilter(p.include_sites, p.exclude_sites);
    const general = kind === "news" ? NEWS_HOSTS : WEB_HOSTS;
    const special = SERVICE_HOSTS[p.search_service ?? ""] ?? [];
    const pool = special.some((h) => filter.allows(h)) ? special : general;
    // what a hit at a given position looks like does not depend on page, max_results or crawl_results
    const topic = { query: p.query, service: p.search_service, language: p.language, time: p.time_range };
    const sites = { include: p.include_sites, exclude: p.exclude_sites };
    const zero = ctx.variability === "max" && rng.chance(0.2);
    // hashed once per request; each position forks from it (forking hashes a short key, not the whole topic)
    const hits = createRng(ctx.seed, kind, topic, sites);

    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (let k = 0; !zero && k < max; k++) {
      const position = (page - 1) * max + k;
      const hitRng = hits.fork(position);
      const host = pickHost(hitRng, filter, pool, words[0]);
      if (host === null) break;
      const hit = buildHit(hitRng, kind, words, host, position);
      const extra = resultFields(hitRng.fork("fields"), kind, p, hit, (h) => filter.allows(h), now);
      const base = extra.link ?? hit.link;
      const link = seen.has(base) ? `${base}${base.includes("?") ? "&" : "?"}p=${position + 1}` : base;
      seen.add(link);
      const result: SearchResult = { title: hit.title, link, snippet: hit.snippet, ...extra.fields };
      if (k < (p.crawl_results ?? 0)) result.content = hitContent(hitRng.fork("content"), hit, words);
      if (ctx.variability === "max") addExtras(hitRng.fork("extras"), result, kind, position, hit.date, host);
      results.push(result);
    }

    const body = { searchParameters: echoedParameters(contract, schema, params), results } as Response;
    if (p.image) body.images = images(rng.fork("images"), results, words, ctx.variability);
    return { ok: true, value: body };
  };
}

function addExtras(rng: Rng, r: SearchResult, kind: SearchKind, n: number, date: string, host: string) {
  if (rng.chance(0.7)) r.id = `res_${rng.int(0, 2 ** 31).toString(16)}${n.toString(16)}`;
  if (rng.chance(0.6)) r.position = n + 1;
  if (rng.chance(0.5)) r.date = date;
  if (kind === "news" && rng.chance(0.5)) r.source = siteName(host);
  if (rng.chance(0.2)) r.snippet = "";
}

function images(rng: Rng, results: SearchResult[], words: string[], variability: string) {
  if (results.length === 0 || (variability === "max" && rng.chance(0.3))) return [];
  return Array.from({ length: rng.int(2, 6) }, (_, i) => {
    const host = new URL(rng.pick(results).link).host;
    return `https://${host}/images/${slug(words)}-${i + 1}.${rng.pick(["jpg", "png", "webp"])}`;
  });
}
