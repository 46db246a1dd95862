// Target URLs for the calls that fetch a page. Against a target that really fetches pages (the canary came back),
// the priced and batch probes point at the fixture site: the document's example URLs (example.com) are unreachable
// from a CI machine, and a real target would rightly answer 502 for them, which says nothing about its billing.
// A synthetic target (the mock) keeps the example URLs, so its run does not depend on the fixture site.
import { padUrl } from "../fixtures/fixture-manifest.ts";
import type { RunContext } from "../types.ts";
import { fetchesRealPages } from "./canary.ts";

/** Fixture pages that exist for every run (conformance/fixtures/site/). */
const FIXTURE_PAGES = ["/article.html", "/links.html"];

/** The fixture page to use instead of `url`, or `url` itself on a synthetic target. */
export async function reachableUrl(ctx: RunContext, url: string, index = 0): Promise<string> {
  const base = ctx.options.fixtureUrl;
  if (!base || !(await ctx.probe(fetchesRealPages)).real) return url;
  return `${base.replace(/\/+$/, "")}${FIXTURE_PAGES[index % FIXTURE_PAGES.length]}`;
}

/** A copy of a body whose `url` (single or per entry) is reachable by the target. */
export async function withReachableUrls<T>(ctx: RunContext, body: T): Promise<T> {
  if (Array.isArray(body)) {
    return (await Promise.all(body.map((entry, i) => withUrl(ctx, entry, i)))) as T;
  }
  return withUrl(ctx, body, 0);
}

async function withUrl<T>(ctx: RunContext, body: T, index: number): Promise<T> {
  if (body === null || typeof body !== "object" || typeof (body as { url?: unknown }).url !== "string") return body;
  return { ...body, url: await reachableUrl(ctx, (body as unknown as { url: string }).url, index) };
}

/**
 * A bound case's body pointed at the fixture site. The URL a case is about (its field ends in `/url`) keeps its
 * length: the fixture site's `/pad.html` with a query string of the missing length (padUrl: a live server and a
 * static export answer it alike), so the edge of a maxLength stays the edge.
 */
export async function withReachableCase<T>(ctx: RunContext, body: T, field: string): Promise<T> {
  if (!/\/url$/.test(field)) return withReachableUrls(ctx, body);
  const base = ctx.options.fixtureUrl;
  const url = (body as { url?: unknown } | null)?.url;
  if (!base || typeof url !== "string" || !(await ctx.probe(fetchesRealPages)).real) return body;
  const padded = padUrl(base, url.length);
  return padded ? { ...body, url: padded } : body;
}

/** A fixture page on a target that fetches real pages, else `fallback` (the document's example URL). */
export async function fixturePageUrl(ctx: RunContext, path: string, fallback: string): Promise<string> {
  const base = ctx.options.fixtureUrl;
  if (!base || !(await ctx.probe(fetchesRealPages)).real) return fallback;
  return `${base.replace(/\/+$/, "")}${path}`;
}
