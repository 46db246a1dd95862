// Target URLs for the calls that fetch a page. Against a target that really fetches pages (the canary came back),
// the priced and batch probes point at the fixture site: the document's example URLs (example.com) are unreachable
// from a CI machine, and a real target would rightly answer 502 for them, which says nothing about its billing.
// A synthetic target (the mock) keeps the example URLs, so its run does not depend on the fixture site.
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
