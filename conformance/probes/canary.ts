// Precondition "target fetches real pages": have the target read a fixture page whose URL carries an id unique to
// this run and whose text carries a token hashed from it. Only a target that really fetched the page can return
// the token; a synthetic target (the mock) cannot, so the semantic checks are reported as skipped for it, never as
// passed. The page is crawled (its text holds the token) or, when --operations leaves out crawl, listed with
// POST /sitemap type all (one of its links holds the token).
import { randomBytes } from "node:crypto";
import type { Contract } from "../../spec/index.ts";
import { json, status } from "../check-helpers.ts";
import { canaryToken } from "../fixtures/fixture-server.ts";
import type { OperationScope } from "../operation-scope.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";

export interface CanaryVerdict {
  real: boolean;
  reason: string;
  token: string;
}

/** The operation the canary reads the page with: crawl, else sitemap, whichever is in scope. */
function canaryOperation(scope: OperationScope): "crawl" | "sitemap" | null {
  if (scope.has("crawl")) return "crawl";
  if (scope.has("sitemap")) return "sitemap";
  return null;
}

export function canaryCost(contract: Contract, scope: OperationScope): number {
  const op = canaryOperation(scope);
  return op ? contract.prices.entryCredits(op, { url: "https://example.com/" }) : 0;
}

async function readPage(ctx: RunContext, op: "crawl" | "sitemap", url: string): Promise<[Exchange, string | null]> {
  if (op === "crawl") {
    const ex = await ctx.http.call("probe:canary", "POST", "/crawl", { body: { url } });
    const content = json<{ results?: { content?: unknown } }>(ex)?.results?.content;
    return [ex, typeof content === "string" ? content : null];
  }
  const ex = await ctx.http.call("probe:canary", "POST", "/sitemap", { body: { url, type: "all" } });
  const links = json<{ links?: unknown }>(ex)?.links;
  return [ex, Array.isArray(links) ? links.map(String).join("\n") : null];
}

export const fetchesRealPages: Probe<CanaryVerdict> = {
  id: "canary",
  cost: (c, _alt, scope) => canaryCost(c, scope),
  async run(ctx) {
    const id = `plbcanary${randomBytes(8).toString("hex")}`;
    const token = canaryToken(id);
    const base = ctx.options.fixtureUrl;
    if (!base) return { real: false, token, reason: "no fixture site (--fixture-url) is available" };
    const op = canaryOperation(ctx.scope);
    if (!op)
      return {
        real: false,
        token,
        reason: "neither crawl nor sitemap is among --operations, so the canary cannot tell a real target",
      };
    const [ex, text] = await readPage(ctx, op, `${base.replace(/\/+$/, "")}/canary/${id}`);
    if (status(ex) === 200 && text?.includes(token))
      return { real: true, token, reason: `the canary page's token came back through ${op}` };
    const why =
      status(ex) === 200 ? "its answer lacks the page's unique token" : `it answered ${status(ex) ?? ex.error}`;
    return {
      real: false,
      token,
      reason: `the target does not fetch real pages (synthetic target): reading the canary fixture page with ${op}, ${why}`,
    };
  },
};
