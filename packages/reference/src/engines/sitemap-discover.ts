// The `sitemap` mode's discovery (interface-spec "POST /sitemap" 1): Sitemap lines of robots.txt first, then the
// conventional paths; sitemap indexes followed breadth-first within depth, document and time limits. Only documents
// are fetched, never the pages they list (rule 4).
import type { HttpClient } from "./http-client.ts";
import type { PageParser } from "./parse/parse-pool.ts";
import { parseRobotsTxt } from "./robots-txt.ts";
import { fetchDocument, type SitemapLimits } from "./sitemap-fetch.ts";
import { parseSitemap } from "./sitemap-parse.ts";

const CONVENTIONAL = ["/sitemap.xml", "/sitemap_index.xml", "/sitemap-index.xml", "/sitemap.xml.gz"];

export interface Discovery {
  /** sitemap documents that parsed as one (0: the site publishes no sitemap) */
  documents: number;
  /** declared URLs, every host, in the order found, each once */
  urls: string[];
  /** true when the robots.txt fetch itself failed (unreachable or refused), so no other fetch is worth trying */
  unreachable: boolean;
}

function absoluteHttp(u: string, base?: string): string | null {
  try {
    const url = new URL(u, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

async function robotsSitemaps(http: HttpClient, origin: string, limits: SitemapLimits, signal: AbortSignal) {
  const robotsUrl = `${origin}/robots.txt`;
  const r = await fetchDocument(http, robotsUrl, { ...limits, maxDocumentBytes: 512 * 1024 }, signal);
  if (!r.ok) return { reachable: false, sitemaps: [] };
  if (r.value.status !== 200) return { reachable: true, sitemaps: [] };
  // only the Sitemap lines are read here: no rule is matched (the file is parsed once, rules past the cap dropped)
  const declared = parseRobotsTxt(robotsUrl, r.value.text, "*").sitemaps;
  return { reachable: true, sitemaps: declared.map((s) => absoluteHttp(s, origin)).filter((s): s is string => !!s) };
}

export async function discoverSitemapUrls(
  http: HttpClient,
  pageUrl: string,
  limits: SitemapLimits,
  signal?: AbortSignal,
  parser?: Pick<PageParser, "sitemap">,
): Promise<Discovery> {
  const budget = AbortSignal.timeout(limits.timeBudgetMs);
  const sig = signal ? AbortSignal.any([budget, signal]) : budget;
  const origin = new URL(pageUrl).origin;
  const robots = await robotsSitemaps(http, origin, limits, sig);
  const out: Discovery = { documents: 0, urls: [], unreachable: !robots.reachable };
  if (!robots.reachable) return out;
  const urls = new Set<string>();
  const seen = new Set<string>();
  const exhausted = () => seen.size >= limits.maxDocuments || urls.size >= limits.maxUrls || sig.aborted;

  /** One document: its child sitemaps when it is an index, null when it is not a sitemap at all. */
  async function read(url: string): Promise<string[] | null> {
    const r = await fetchDocument(http, url, limits, sig);
    if (!r.ok || r.value.status !== 200) return null;
    const parsed = parser
      ? await parser.sitemap(r.value.text, sig)
      : { ok: true as const, value: parseSitemap(r.value.text) };
    if (!parsed.ok || parsed.value.kind === "none") return null;
    const doc = parsed.value;
    out.documents++;
    // child sitemaps may be written relative to their index (lenient: they are our fetches, not our answer) ...
    if (doc.kind === "index") return doc.sitemaps.map((s) => absoluteHttp(s, r.value.url)).filter((s) => s !== null);
    // ... but the protocol requires absolute page <loc>s: a relative one declares nothing
    for (const u of doc.urls) {
      const abs = absoluteHttp(u);
      if (abs && urls.size < limits.maxUrls) urls.add(abs);
    }
    return [];
  }

  /** Reads the tree of sitemaps under `root`, breadth first; true when the root was a sitemap. */
  async function walk(root: string): Promise<boolean> {
    let level = [root];
    let rootIsSitemap = false;
    for (let depth = 0; depth <= limits.maxDepth && level.length > 0; depth++) {
      const next: string[] = [];
      for (const url of level) {
        if (seen.has(url) || exhausted()) continue;
        seen.add(url);
        const children = await read(url);
        if (children && url === root) rootIsSitemap = true;
        next.push(...(children ?? []));
      }
      level = next;
    }
    return rootIsSitemap;
  }

  for (const s of robots.sitemaps) await walk(s);
  if (out.documents === 0) for (const path of CONVENTIONAL) if (await walk(`${origin}${path}`)) break;
  out.urls = [...urls];
  return out;
}
