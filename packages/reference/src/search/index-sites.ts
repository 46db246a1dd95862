// `plumbline reference index add URL...` (issue 14 "Embedded default": a command fills the index from a sitemap):
// each site's URLs come from the sitemap engine (the URLs its sitemaps declare for that host, or the page's own
// links when it publishes none), then every URL is fetched with the crawl engine, which indexes what it fetches.
import type { EngineContext, Engines } from "@plumbline-kit/platform/engines";

export interface IndexSitesOptions {
  urls: string[];
  sitemap: Engines["sitemap"];
  /** an indexing crawl (index-feeds.ts `indexingCrawl`) */
  crawl: Engines["crawl"];
  /** at most this many pages per site (default 500) */
  limit?: number;
  /** pages fetched at once (default 4) */
  concurrency?: number;
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

export interface IndexSitesResult {
  /** per site: URLs found and pages indexed */
  sites: Array<{ url: string; discovered: number; indexed: number; error?: string }>;
  failed: Array<{ url: string; code: string; message?: string }>;
}

export async function indexSites(o: IndexSitesOptions): Promise<IndexSitesResult> {
  const ctx: EngineContext = { requestId: "index-add", variability: "normal", seed: 0, signal: o.signal };
  const out: IndexSitesResult = { sites: [], failed: [] };
  for (const site of o.urls) {
    const found = await o.sitemap({ url: site, type: "sitemap" }, ctx);
    if (!found.ok) {
      out.sites.push({ url: site, discovered: 0, indexed: 0, error: found.message ?? found.code });
      o.onProgress?.(`${site}: no sitemap and no page (${found.message ?? found.code})`);
      continue;
    }
    const urls = [...new Set([site, ...found.value.links])].slice(0, o.limit ?? 500);
    o.onProgress?.(`${site}: ${urls.length} URLs to fetch`);
    let indexed = 0;
    let next = 0;
    const worker = async () => {
      while (next < urls.length && !o.signal?.aborted) {
        const url = urls[next++];
        const r = await o.crawl({ url }, ctx);
        if (r.ok) indexed++;
        else {
          out.failed.push({ url, code: r.code, message: r.message });
          o.onProgress?.(`  ${url}: ${r.message ?? r.code}`);
        }
      }
    };
    await Promise.all(Array.from({ length: o.concurrency ?? 4 }, worker));
    out.sites.push({ url: site, discovered: urls.length, indexed });
    o.onProgress?.(`${site}: ${indexed} of ${urls.length} pages indexed`);
  }
  return out;
}
