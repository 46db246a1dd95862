// `--fixture-url`: a site the target can really fetch, read by the fuzzer itself before the run, so that the URLs
// of valid bodies name pages whose answer is known instead of reserved example domains a real target cannot fetch.
// The pages are the given URL and what the site's sitemaps declare for its origin (robots.txt `Sitemap:` lines,
// else /sitemap.xml; indexes and gzip followed), plus a made-up path and the conformance fixture site's status
// pages (/status/404, /status/410) when they answer 404 or 410, plus one host that never resolves. Every URL is
// fetched once here and its status kept: that status, not a guess, is what a call naming it must reflect (the
// same page with a fragment answers the same: the fragment is never sent).

import { gunzipSync } from "node:zlib";
import { createHttpClient, headerText } from "@plumbline-kit/contract/http/client";

/** RFC 6761: names under .invalid never resolve, so a target that fetches it cannot reach it. */
export const UNREACHABLE_URL = "http://plumbline-fuzz-unreachable.invalid/";
/** Paths probed for a 404 or 410 answer; each is kept only with the status it really answers. */
const FAILING_PATHS = ["/plumbline-fuzz/no-such-page", "/status/404", "/status/410"];
const MAX_SITEMAPS = 10;
const MAX_PAGES = 24;
const MAX_BYTES = 5 * 1024 * 1024;

export interface FixtureSite {
  /** the URL given with --fixture-url */
  url: string;
  /** pages that answered 2xx with text or HTML */
  pages: string[];
  /** URLs that answered 404 or 410, and the unreachable one */
  failing: string[];
  /** every URL above with the status it answered the fuzzer (0: no answer at all) */
  statuses: Record<string, number>;
}

export type SiteRead = { ok: true; site: FixtureSite } | { ok: false; reason: string };

interface Fetched {
  status: number;
  type: string;
  body: Buffer;
}

async function get(url: string, timeoutMs: number): Promise<Fetched | null> {
  const http = createHttpClient();
  try {
    const res = await http.request({ method: "GET", url, headers: { accept: "*/*" }, timeoutMs });
    if (!res.ok) return null;
    return { status: res.status, type: (headerText(res.headers, "content-type") ?? "").toLowerCase(), body: res.body };
  } catch {
    return null;
  } finally {
    http.close();
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)].map((m) =>
    m[1].replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]),
  );
}

function text(f: Fetched): string {
  const gz = f.body[0] === 0x1f && f.body[1] === 0x8b;
  const body = gz ? gunzipSync(f.body, { maxOutputLength: MAX_BYTES }) : f.body;
  return body.toString("utf8");
}

const isText = (type: string) => /^text\/|^application\/xhtml\+xml/.test(type);
const sameOrigin = (url: string, origin: string) => URL.canParse(url) && new URL(url).origin === origin;

/** The sitemaps robots.txt declares (else /sitemap.xml), followed through indexes: the pages of the origin. */
async function sitemapPages(origin: string, timeoutMs: number): Promise<string[]> {
  const robots = await get(`${origin}/robots.txt`, timeoutMs);
  const declared =
    robots && robots.status < 300
      ? [...robots.body.toString("utf8").matchAll(/^\s*sitemap:\s*(\S+)/gim)].map((m) => m[1])
      : [];
  const queue = declared.length ? declared : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  const pages: string[] = [];
  while (queue.length && seen.size < MAX_SITEMAPS && pages.length < MAX_PAGES) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const doc = await get(url, timeoutMs);
    if (!doc || doc.status >= 300 || doc.body.length > MAX_BYTES) continue;
    let xml: string;
    try {
      xml = text(doc);
    } catch {
      continue;
    }
    if (/<sitemapindex[\s>]/i.test(xml)) queue.push(...locs(xml));
    else pages.push(...locs(xml).filter((u) => sameOrigin(u, origin)));
  }
  return pages.slice(0, MAX_PAGES);
}

export const isSiteUrl = (url: string) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);

export async function readFixtureSite(fixtureUrl: string, timeoutMs: number): Promise<SiteRead> {
  if (!isSiteUrl(fixtureUrl)) return { ok: false, reason: `--fixture-url takes an http(s) URL, not "${fixtureUrl}"` };
  const url = new URL(fixtureUrl).href;
  const origin = new URL(url).origin;
  const candidates = [
    ...new Set([url, ...(await sitemapPages(origin, timeoutMs)), ...FAILING_PATHS.map((p) => origin + p)]),
  ];
  const site: FixtureSite = { url, pages: [], failing: [], statuses: {} };
  const answers = await Promise.all(candidates.map((c) => get(c, timeoutMs)));
  candidates.forEach((c, i) => {
    const a = answers[i];
    if (a && a.status >= 200 && a.status < 300 && isText(a.type)) site.pages.push(c);
    else if (a && (a.status === 404 || a.status === 410)) site.failing.push(c);
    else return;
    site.statuses[c] = a.status;
  });
  if (site.pages.length === 0) {
    return { ok: false, reason: `no page of ${url} (nor of its sitemaps) answers 2xx with text or HTML` };
  }
  if ((await get(UNREACHABLE_URL, timeoutMs)) === null) {
    site.failing.push(UNREACHABLE_URL);
    site.statuses[UNREACHABLE_URL] = 0;
  }
  return { ok: true, site };
}

/** The status the site answered for a URL; a fragment never reaches the server (RFC 3986 3.5). */
export function statusOf(site: FixtureSite, url: string): number | undefined {
  return site.statuses[url] ?? site.statuses[url.replace(/#.*$/s, "")];
}

/** The status the site answered for each URL a body names (the expectation a replay file keeps). */
export function statusesIn(site: FixtureSite, body: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (v: unknown): void => {
    const status = typeof v === "string" ? statusOf(site, v) : undefined;
    if (typeof v === "string" && status !== undefined) out[v] = status;
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(body);
  return out;
}
