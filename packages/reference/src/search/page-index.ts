// The reference's embedded search backend (issue 14 "Embedded default"): a full-text index of every page the
// reference has fetched (crawl, search-result crawling, deepcrawl, `plumbline reference index add`). One interface,
// two stores: SQLite FTS5 (sqlite-page-index.ts) and PostgreSQL full-text search (postgres-page-index.ts).
import { isDayOnly } from "./upstream/upstream.ts";

export interface IndexedPage {
  url: string;
  title: string;
  /** the page's readable text, Markdown as /crawl gives it */
  markdown: string;
  /** ISO date-time of the fetch */
  fetchedAt: string;
  /** ISO date-time the page says it was published (crawl metadata published_time); news needs one */
  publishedAt?: string | null;
  /** BCP 47 tag the page declares (en, de-CH); picks the stemmer on PostgreSQL */
  language?: string | null;
  description?: string | null;
  /** the page's pictures (crawl metadata images): what `image: true` answers */
  images?: string[];
}

export interface IndexQuery {
  query: string;
  /** BCP 47; restricts to pages in that language (pages of unknown language stay) and picks the stemmer */
  language?: string;
  limit: number;
  offset: number;
  /** news: only pages with a publication date */
  publishedOnly?: boolean;
  /** only pages dated (published, else fetched) at or after this ISO date-time */
  since?: string;
  includeSites?: string[];
  excludeSites?: string[];
}

export interface IndexHit {
  url: string;
  title: string;
  markdown: string;
  description: string | null;
  publishedAt: string | null;
  fetchedAt: string;
  images: string[];
  /** higher is more relevant; comparable within one answer only */
  score: number;
}

export interface PageIndex {
  /** Adds the page, or replaces the copy of the same URL. */
  add(page: IndexedPage): Promise<void>;
  /** Matching pages, best first; every term must match, else (nothing found) any term. */
  search(query: IndexQuery): Promise<IndexHit[]>;
  count(): Promise<number>;
  /** Stops what the index runs apart (the SQLite index's thread); the database itself is its owner's to close. */
  close?(): Promise<void>;
}

/** Largest body indexed per page (PostgreSQL caps a tsvector at 1 MiB; nobody searches past this much text). */
export const MAX_INDEXED_CHARS = 200_000;

/** A lower-case host and the sites filter values, as `example.com` or `docs.example.com` (D-search-sites). */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** `https://www.Example.com/x` or `example.com/` → `example.com`: what a user types in include_sites. */
export function siteOf(value: string): string {
  const v = value.trim().toLowerCase();
  const host = /^[a-z][a-z0-9+.-]*:\/\//.test(v) ? hostOf(v) : (v.split("/")[0] ?? "");
  return host
    .replace(/^\*\./, "")
    .replace(/^www\./, "")
    .replace(/\.$/, "");
}

export function withinSite(host: string, site: string): boolean {
  return site !== "" && (host === site || host.endsWith(`.${site}`));
}

/** The include/exclude rule of every backend, applied to a URL. */
export function passesSites(url: string, include: string[] = [], exclude: string[] = []): boolean {
  const host = hostOf(url);
  const inc = include.map(siteOf).filter(Boolean);
  const exc = exclude.map(siteOf).filter(Boolean);
  if (inc.length > 0 && !inc.some((s) => withinSite(host, s))) return false;
  return !exc.some((s) => withinSite(host, s));
}

/** The URL a page is indexed under: without its fragment (`/a#x` and `/a` are one page). */
export function pageUrl(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href;
  } catch {
    return url;
  }
}

/**
 * A page's publication date as the index keeps it: the day alone when the page gave only a day (D-result-fields:
 * `published_date` is then YYYY-MM-DD), else the ISO date-time; null for anything Date cannot read.
 */
export function publishedOf(value: string | null | undefined): string | null {
  return value && isDayOnly(value) ? value.trim() : isoDate(value);
}

/** An ISO date-time, or null for anything Date cannot read ("yesterday", "2024-13-45"). */
export function isoDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
