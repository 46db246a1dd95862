// What a search upstream answers and how the reference talks to one (issue 14 "Upstream adapters"). Upstreams are
// services the operator configures (SearXNG, Wikipedia, arXiv, GitHub, Hacker News/Algolia); their base URLs come
// from options, never from the code. Failures are values: any upstream trouble is PLB_UPSTREAM_FAILED (502,
// uncharged, D-charging), with a message naming the upstream but never a credential. Every answer is bounded in
// time (the timeout covers the body too) and in size (UPSTREAM_MAX_BYTES, issue 38).
import type { LiveSchemas, Schemas } from "@plumbline-kit/contract";
import type { EngineResult } from "@plumbline-kit/platform/engines";
import { BodyTooLargeError, bytesCap, readResponseBody } from "../../engines/response-body.ts";

export type TimeRange = Exclude<Schemas["SearchParameters"]["time_range"], "" | undefined>;

export interface UpstreamQuery {
  kind: "search" | "news";
  /** the resolved search_service (never empty: D-default-search-service) */
  service: string;
  query: string;
  page: number;
  maxResults: number;
  language?: string;
  timeRange?: TimeRange;
  /** ISO date-time the time range starts at */
  since?: string;
  includeSites: string[];
  excludeSites: string[];
  image: boolean;
}

export interface UpstreamHit {
  title: string;
  link: string;
  snippet: string;
  /** ISO date-time the result is dated (published, else last updated); null when the upstream gives none */
  date: string | null;
  /** the fields of D-result-fields the upstream really gives (github `kind`, `stars`, `language`; hackernews
   * `points`, `num_comments`, `story_url`), sent under both versions (the seed's result admits extra properties) */
  fields?: ResultFields;
}

/** The result fields D-result-fields adds, as the live contract types them (sent under both versions). */
export type ResultFields = Pick<
  LiveSchemas["SearchResult"],
  "kind" | "stars" | "language" | "num_comments" | "points" | "story_url"
>;

/** A count an upstream gives, when it is a non-negative whole number (D-result-fields); else undefined. */
export function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export interface UpstreamAnswer {
  hits: UpstreamHit[];
  images: string[];
}

export interface SearchBackend {
  /** for messages and the README table */
  name: string;
  search(q: UpstreamQuery, signal?: AbortSignal): Promise<EngineResult<UpstreamAnswer>>;
}

/** An upstream's answer is read up to this many bytes (the crawl's cap on a page's body): past it, a 502. */
export const UPSTREAM_MAX_BYTES = 5 * 1024 * 1024;

export interface UpstreamFetchOptions {
  /** the whole call, headers and body */
  timeoutMs: number;
  /** bytes of answer read at most (default UPSTREAM_MAX_BYTES) */
  maxBytes?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const failed = (message: string) => ({ ok: false as const, code: "PLB_UPSTREAM_FAILED" as const, message });

/**
 * GETs `url` and returns its body text; a non-2xx answer, a timeout, an answer past `maxBytes` or a network error is
 * a failure value. The body is streamed in under the cap and the connection closed as soon as it passes it.
 */
export async function fetchUpstream(
  name: string,
  url: URL,
  o: UpstreamFetchOptions,
): Promise<EngineResult<{ text: string; contentType: string }>> {
  const maxBytes = o.maxBytes ?? UPSTREAM_MAX_BYTES;
  const timeout = AbortSignal.timeout(o.timeoutMs);
  // aborted on the way out of a failure, so no connection outlives its call (an unread body, a body past the cap)
  const done = new AbortController();
  const signal = AbortSignal.any([done.signal, timeout, ...(o.signal ? [o.signal] : [])]);
  try {
    const res = await fetch(url, { headers: o.headers, signal, redirect: "follow" });
    if (!res.ok) {
      done.abort();
      return failed(`The ${name} upstream answered ${res.status}`);
    }
    const text = (await readResponseBody(res, maxBytes)).toString("utf8");
    return { ok: true, value: { text, contentType: res.headers.get("content-type") ?? "" } };
  } catch (err) {
    done.abort();
    if (err instanceof BodyTooLargeError && !timeout.aborted)
      return failed(`The ${name} upstream answered more than ${bytesCap(maxBytes)}, this service's cap`);
    const why = timeout.aborted ? `did not answer within ${o.timeoutMs} ms` : "could not be reached";
    return failed(`The ${name} upstream ${why}${err instanceof Error && !timeout.aborted ? ` (${err.message})` : ""}`);
  }
}

export async function fetchUpstreamJson(
  name: string,
  url: URL,
  o: UpstreamFetchOptions,
): Promise<EngineResult<unknown>> {
  const r = await fetchUpstream(name, url, o);
  if (!r.ok) return r;
  try {
    return { ok: true, value: JSON.parse(r.value.text) };
  } catch {
    return failed(`The ${name} upstream answered something that is not JSON`);
  }
}

export const upstreamFailure = failed;

/** An absolute http(s) URL in its serialized form (a valid `format: uri`), or null. */
export function cleanUrl(value: unknown, base?: string): string | null {
  if (typeof value !== "string" || value === "") return null;
  try {
    const u = new URL(value, base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Upstream snippets come with markup (`<span class="searchmatch">`) and entities: plain text out. */
export function plainText(html: unknown): string {
  if (typeof html !== "string") return "";
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const n = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

export function isoOrNull(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  // a day alone stays a day (D-result-fields: published_date is YYYY-MM-DD when only the day is known)
  if (typeof value === "string" && isDayOnly(value)) return value.trim();
  const t = typeof value === "number" ? value * 1000 : Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

/** Whether a date names a day alone (`YYYY-MM-DD`, a real day), no time of it. */
export function isDayOnly(value: string): boolean {
  const v = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().startsWith(v);
}

/** The base URL with `path` appended (a base may carry a path prefix, e.g. a SearXNG behind /searx). */
export function under(base: string, path: string): URL {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, "")}${path}`;
  return u;
}
