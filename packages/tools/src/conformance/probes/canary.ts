// Precondition "target fetches real pages": have the target read a canary page of the fixture site whose text
// carries a token only that page holds (a live server's keyed derivation, or an export's random token listed in its
// manifest). Only a target that really fetched the page can return the token. The page is crawled (its text holds
// the token) or, when --operations leaves out crawl, listed with POST /sitemap type all (a link holds it).
//
// What the answer says (issue 27):
// - 200 with the token: a real target; the real-page checks run.
// - 200 without it: a synthetic target (the mock); the real-page checks are skipped as such, never passed.
// - an error (a refused private address, 403, 502, a timeout): the suite asks once more, for a page on a host that
//   cannot exist (RFC 6761 .invalid). A target that answers that with 200 makes its answers up: synthetic (the mock
//   refuses loopback addresses as the reference does, and invents every other page). One that fails it too really
//   fetches, and cannot reach the fixture site: a failed precondition, naming the fixture URL, the target's answer
//   and what to do about it.
// With a manifest, the suite first reads the canary page itself: a page that does not carry the manifest's token
// (a forged or stale manifest, or another site) stops the real-page checks before the target is asked anything.

import { randomBytes } from "node:crypto";
import type { Contract } from "@plumbline-kit/contract";
import { createHttpClient } from "@plumbline-kit/contract/http/client";
import { json, status } from "../check-helpers.ts";
import type { FixtureCanary } from "../fixtures/fixture-manifest.ts";
import type { OperationScope } from "../operation-scope.ts";
import type { SkipKind } from "../skip-reasons.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";

export type CanaryKind =
  | "real"
  | Extract<SkipKind, "synthetic" | "fixture-unreachable" | "fixture-manifest" | "no-canary">;

export interface CanaryVerdict {
  real: boolean;
  /** what the run learnt about the target: real, synthetic, or why it could not tell */
  kind: CanaryKind;
  reason: string;
  /** the page read and its token (absent when the canary could not run) */
  page?: string;
  token?: string;
}

/** The operation the canary reads the page with: crawl, else sitemap, whichever is in scope. */
function canaryOperation(scope: OperationScope): "crawl" | "sitemap" | null {
  if (scope.has("crawl")) return "crawl";
  if (scope.has("sitemap")) return "sitemap";
  return null;
}

/** At most two reads: the canary page, and the page on a host that cannot exist when the first is refused. */
export function canaryCost(contract: Contract, scope: OperationScope): number {
  const op = canaryOperation(scope);
  return op ? 2 * contract.prices.entryCredits(op, { url: "https://example.com/" }) : 0;
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

/** The target's answer as a person reads it: status, error code and message, or the transport error. */
export function answerText(ex: Exchange): string {
  if (!ex.response) return `no answer (${ex.error ?? "no response"})`;
  const body = json<{ code?: unknown; message?: unknown; detail?: unknown }>(ex);
  const code = typeof body?.code === "string" ? ` ${body.code}` : "";
  const message =
    typeof body?.message === "string" ? body.message : typeof body?.detail === "string" ? body.detail : "";
  return `${ex.response.status}${code}${message ? ` "${message.slice(0, 200)}"` : ""}`;
}

const PRIVATE_HOST =
  /^(localhost|.*\.localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|\[?::1\]?$|\[?f[cd])/i;

/** Whether a fixture address is one only this machine or its network can reach. */
export const isPrivateFixture = (url: string) => PRIVATE_HOST.test(new URL(url).hostname);

/** What to do when the target cannot read the fixture site at `base`. */
export function fixtureFix(base: string): string {
  const deployment =
    "for a deployment, a fixture site it can fetch: a hosted export (plumbline conform fixtures export DIR --base-url URL, published, then --fixture-url URL --fixture-manifest DIR/manifest.json) or plumbline conform serve-fixtures --host 0.0.0.0 --manifest FILE on a network the target shares (--fixture-url http://HOST:4020 --fixture-manifest FILE)";
  if (isPrivateFixture(base))
    return `${base} is a private address: a local reference reads it when started with --allow-private-network (plumbline reference --allow-private-network); ${deployment}`;
  return `check that ${base} is up and that the target's network reaches it; ${deployment}`;
}

/** The canary page of this run: a fresh one of the run's own server, or one of the manifest's at random. */
async function pickCanary(ctx: RunContext): Promise<{ canary: FixtureCanary } | { kind: CanaryKind; reason: string }> {
  const own = ctx.options.fixtureCanary;
  if (own) return { canary: own() };
  const manifest = ctx.options.fixtureManifest;
  const base = ctx.options.fixtureUrl as string;
  if (!manifest)
    return {
      kind: "fixture-manifest",
      reason: `--fixture-url ${base} was given without --fixture-manifest: the suite does not know the tokens of its canary pages (write one with plumbline conform fixtures export DIR, or serve-fixtures --manifest FILE)`,
    };
  const canary = manifest.canaries[randomBytes(4).readUInt32BE() % manifest.canaries.length];
  // the suite reads the page itself first: a manifest whose token the site does not carry proves nothing
  const url = `${base}${canary.path}`;
  const http = createHttpClient();
  const answer = await http
    .request({ method: "GET", url, timeoutMs: ctx.options.requestTimeoutMs })
    .catch((err: Error) => ({ ok: false as const, kind: "dropped", message: `${err.name}: ${err.message}` }))
    .finally(() => http.close());
  const seen = answer.ok
    ? { status: answer.status, text: answer.body.toString("utf8") }
    : { status: 0, text: `${answer.kind}: ${answer.message}` };
  if (seen.status !== 200)
    return {
      kind: "fixture-unreachable",
      reason: `the suite cannot read the fixture site's canary page ${url} itself (${seen.status || seen.text}): is it published there? ${fixtureFix(base)}`,
    };
  if (!seen.text.includes(canary.token))
    return {
      kind: "fixture-manifest",
      reason: `the fixture manifest does not match the site at ${base}: its canary page ${canary.path} does not carry the manifest's token (a forged or stale manifest, or --fixture-url names another site); export again and publish that export`,
    };
  return { canary };
}

export const fetchesRealPages: Probe<CanaryVerdict> = {
  id: "canary",
  cost: (c, _alt, scope) => canaryCost(c, scope),
  async run(ctx) {
    const base = ctx.options.fixtureUrl;
    if (!base)
      return { real: false, kind: "fixture-unreachable", reason: "no fixture site (--fixture-url) is available" };
    const op = canaryOperation(ctx.scope);
    if (!op)
      return {
        real: false,
        kind: "no-canary",
        reason: "neither crawl nor sitemap is among --operations, so the canary cannot tell a real target",
      };
    const picked = await pickCanary(ctx);
    if ("kind" in picked) return { real: false, kind: picked.kind, reason: picked.reason };
    const { path, token } = picked.canary;
    const page = `${base}${path}`;
    const [ex, text] = await readPage(ctx, op, page);
    const verdict = { page, token };
    if (status(ex) === 200 && text?.includes(token))
      return { ...verdict, real: true, kind: "real", reason: `the canary page's token came back through ${op}` };
    if (status(ex) === 200)
      return {
        ...verdict,
        real: false,
        kind: "synthetic",
        reason: `the target does not fetch real pages (synthetic target): reading the canary fixture page with ${op}, it answered 200 without the page's unique token`,
      };
    // refused or failed: does it fetch at all? A page on a host that cannot exist tells
    const nowhere = `https://${randomBytes(6).toString("hex")}.plumbline-canary.invalid/page.html`;
    const [elsewhere] = await readPage(ctx, op, nowhere);
    if (status(elsewhere) === 200)
      return {
        ...verdict,
        real: false,
        kind: "synthetic",
        reason: `the target does not fetch real pages (synthetic target): it answered the canary fixture page with ${op} ${answerText(ex)}, and a page on a host that cannot exist (${nowhere}) with 200`,
      };
    return {
      ...verdict,
      real: false,
      kind: "fixture-unreachable",
      reason: `the target cannot reach the fixture site: reading the canary page ${page} with ${op}, it answered ${answerText(ex)}. Fix: ${fixtureFix(base)}`,
    };
  },
};
