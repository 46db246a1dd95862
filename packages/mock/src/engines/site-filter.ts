// include_sites / exclude_sites of search and news (interface-spec, Search parameters): a link honours the
// filter when its host is one of the included sites or a subdomain of one, and is neither an excluded site nor
// a subdomain of one. Entries may be written as hosts or as URLs; anything else names no host.
import type { Rng } from "./rng.ts";

const HOST_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** "https://Example.com/path" → "example.com"; "*.example.com" → "example.com"; junk → null */
export function normalizeSite(site: string): string | null {
  let s = site.trim().toLowerCase();
  if (s.includes("://")) {
    try {
      s = new URL(s).hostname;
    } catch {
      return null;
    }
  }
  s = s
    .replace(/^\*\./, "")
    .replace(/[/?#:].*$/, "")
    .replace(/\.$/, "");
  // a numeric last label ("0", "a.10") is an IPv4 form to URL parsers, not a host name: links on it would not parse
  return HOST_RE.test(s) && !/(^|\.)\d+$/.test(s) ? s : null;
}

export function hostMatches(host: string, site: string): boolean {
  return host === site || host.endsWith(`.${site}`);
}

export interface SiteFilter {
  include: string[];
  exclude: string[];
  /** the include list named sites but none was usable (or all were excluded): no link can honour it */
  impossible: boolean;
  allows(host: string): boolean;
}

export function siteFilter(includeSites: readonly string[] = [], excludeSites: readonly string[] = []): SiteFilter {
  const exclude = excludeSites.map(normalizeSite).filter((s): s is string => s !== null);
  const allowedByExclude = (host: string) => !exclude.some((site) => hostMatches(host, site));
  const include = includeSites
    .map(normalizeSite)
    .filter((s): s is string => s !== null)
    .filter(allowedByExclude);
  return {
    include,
    exclude,
    impossible: includeSites.length > 0 && include.length === 0,
    allows: (host) =>
      allowedByExclude(host) && (includeSites.length === 0 || include.some((s) => hostMatches(host, s))),
  };
}

/**
 * A host for one result: from the included sites when there are any (sometimes a subdomain of one), else from
 * `pool`, else invented from the topic, always one the filter allows. Null when the filter allows nothing.
 */
export function pickHost(rng: Rng, filter: SiteFilter, pool: readonly string[], topic: string): string | null {
  if (filter.impossible) return null;
  if (filter.include.length > 0) {
    const site = rng.pick(filter.include);
    const sub = `${rng.pick(["docs", "blog", "www", "news"])}.${site}`;
    return rng.chance(0.3) && filter.allows(sub) ? sub : site;
  }
  const allowed = pool.filter((h) => filter.allows(h));
  if (allowed.length > 0) return rng.pick(allowed);
  const base = topic.toLowerCase().replace(/[^a-z0-9]+/g, "") || "topic";
  for (let i = 0; i < 20; i++) {
    const invented = `${base}${rng.pick(["hub", "guide", "notes", "daily", "wiki"])}${i || ""}.${rng.pick(["com", "net", "org", "io"])}`;
    if (filter.allows(invented)) return invented;
  }
  return null;
}
