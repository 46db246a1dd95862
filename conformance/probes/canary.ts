// Precondition "target fetches real pages": crawl a fixture page whose URL carries an id unique to this run and whose
// text carries a token hashed from it. Only a target that really fetched the page can return the token; a synthetic
// target (the mock) cannot, so the semantic checks are reported as skipped for it, never as passed.
import { randomBytes } from "node:crypto";
import { json, status } from "../check-helpers.ts";
import { canaryToken } from "../fixtures/fixture-server.ts";
import type { Probe } from "../types.ts";

export interface CanaryVerdict {
  real: boolean;
  reason: string;
  token: string;
}

export const fetchesRealPages: Probe<CanaryVerdict> = {
  id: "canary",
  cost: (c) => c.prices.entryCredits("crawl", { url: "https://example.com/" }),
  async run(ctx) {
    const id = `plbcanary${randomBytes(8).toString("hex")}`;
    const token = canaryToken(id);
    const base = ctx.options.fixtureUrl;
    if (!base) return { real: false, token, reason: "no fixture site (--fixture-url) is available" };
    const url = `${base.replace(/\/+$/, "")}/canary/${id}`;
    const ex = await ctx.http.call("probe:canary", "POST", "/crawl", { body: { url } });
    const content = json<{ results?: { content?: unknown } }>(ex)?.results?.content;
    if (status(ex) === 200 && typeof content === "string" && content.includes(token))
      return { real: true, token, reason: "the canary page's token came back" };
    const why =
      status(ex) === 200 ? "its content lacks the page's unique token" : `it answered ${status(ex) ?? ex.error}`;
    return {
      real: false,
      token,
      reason: `the target does not fetch real pages (synthetic target): crawling the canary fixture page ${why}`,
    };
  },
};
