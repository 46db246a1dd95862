// Shared probe: the OAuth flow walked three times with one registered public client, recording every exchange for
// the OAuth checks (checks/oauth-discovery.ts) to judge. Free: only /usage is called with the tokens.
//   A (openid offline_access): a wrong verifier, a wrong redirect_uri, then the right exchange, then the code again
//   B (openid offline_access): refresh, the rotated-out refresh token again, then the family's newest tokens
//   C (openid): no refresh token expected; the access token revoked, then used
// and two authorization requests that must be refused: without code_challenge, with an unregistered redirect_uri.
import { randomBytes } from "node:crypto";
import { json, status } from "../check-helpers.ts";
import {
  type Authorization,
  authorizationServerMetadataUrl,
  authorize,
  authorizeUrl,
  type Json,
  pkcePair,
  postForm,
  REDIRECT_URI,
  register,
  tokenGrant,
  tokensOf,
  usageWith,
} from "../oauth-client.ts";
import { type ConsentBrowser, consentBrowser } from "../oauth-consent-browser.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";

const BY = "probe:oauth-flow";
const FULL = "openid offline_access";

export interface CodeFlow {
  scope: string;
  state: string;
  authorization: Authorization;
  code: string | null;
  /** the right exchange of the code */
  exchange?: Exchange;
  access?: string;
  refresh?: string;
}

export interface OAuthFlowRecord {
  /** why no flow could be walked (no authorization server, no registration, nobody to consent) */
  skip?: string;
  /** oauth-account when nobody could consent (no --oauth-user, or the sign-in failed) */
  skipKind?: "oauth-account";
  notes: string[];
  prm: Exchange;
  issuer?: string;
  metadata?: Exchange;
  meta?: Json;
  registration?: Exchange;
  clientId?: string | null;
  a?: CodeFlow & {
    wrongVerifier?: Exchange;
    wrongRedirect?: Exchange;
    usage?: Exchange;
    reuse?: Exchange;
    usageAfterReuse?: Exchange;
  };
  noChallenge?: Exchange;
  unregisteredRedirect?: Exchange;
  b?: CodeFlow & {
    refreshed?: Exchange;
    reuseOld?: Exchange;
    refreshNewest?: Exchange;
    usageNewest?: Exchange;
  };
  c?: CodeFlow & { revoke?: Exchange; usageBefore?: Exchange; usageAfter?: Exchange };
}

async function codeFlow(
  browser: ConsentBrowser | null,
  ctx: RunContext,
  meta: Json,
  clientId: string,
  scope: string,
): Promise<CodeFlow & { verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(12).toString("hex");
  const authorization = await authorize(
    ctx,
    BY,
    authorizeUrl(meta, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      state,
      scope,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }),
    browser,
  );
  return { scope, state, authorization, code: authorization.back?.searchParams.get("code") ?? null, verifier };
}

const exchangeCode = (
  ctx: RunContext,
  meta: Json,
  clientId: string,
  code: string,
  verifier: string,
  redirect = REDIRECT_URI,
) =>
  tokenGrant(ctx, BY, meta, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirect,
    client_id: clientId,
    code_verifier: verifier,
  });

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

export const oauthFlowProbe: Probe<OAuthFlowRecord> = {
  id: "oauth-flow",
  cost: () => 0,
  async run(ctx) {
    const { oauthUser, oauthPassword, chromiumPath } = ctx.options;
    const browser =
      oauthUser && oauthPassword ? consentBrowser({ user: oauthUser, password: oauthPassword, chromiumPath }) : null;
    try {
      return await walk(ctx, browser);
    } finally {
      await browser?.close();
    }
  },
};

async function walk(ctx: RunContext, browser: ConsentBrowser | null): Promise<OAuthFlowRecord> {
  const prm = await ctx.http.call(BY, "GET", "/.well-known/oauth-protected-resource", { auth: "none" });
  const rec: OAuthFlowRecord = { prm, notes: [] };
  const servers = json<{ authorization_servers?: unknown }>(prm)?.authorization_servers;
  const issuer = Array.isArray(servers) && typeof servers[0] === "string" ? servers[0] : null;
  if (!issuer) return { ...rec, skip: "the protected-resource metadata names no authorization server" };
  rec.issuer = issuer;
  let metadataUrl: string;
  try {
    metadataUrl = authorizationServerMetadataUrl(issuer);
  } catch {
    return rec;
  }
  rec.metadata = await ctx.http.call(BY, "GET", metadataUrl, { auth: "none" });
  const meta = json<Json>(rec.metadata);
  if (status(rec.metadata) !== 200 || !meta)
    return { ...rec, skip: `no authorization-server metadata is reachable at ${metadataUrl}` };
  rec.meta = meta;
  if (typeof meta.registration_endpoint !== "string" || typeof meta.authorization_endpoint !== "string")
    return { ...rec, skip: "the authorization server offers no dynamic registration" };
  if (typeof meta.token_endpoint !== "string") return rec;

  const reg = await register(ctx, BY, meta, FULL);
  rec.registration = reg.exchange;
  rec.clientId = reg.clientId;
  const clientId = reg.clientId;
  if (!clientId) return rec;

  // A: the code's exchange, wrong then right then again
  const a: NonNullable<OAuthFlowRecord["a"]> & { verifier: string } = await codeFlow(
    browser,
    ctx,
    meta,
    clientId,
    FULL,
  );
  rec.a = a;
  rec.notes.push(...a.authorization.notes);
  if (a.authorization.skip) return { ...rec, skip: a.authorization.skip, skipKind: a.authorization.skipKind };
  if (a.code) {
    a.wrongVerifier = await exchangeCode(ctx, meta, clientId, a.code, pkcePair().verifier);
    a.wrongRedirect = await exchangeCode(ctx, meta, clientId, a.code, a.verifier, "http://127.0.0.1:9/elsewhere");
    a.exchange = await exchangeCode(ctx, meta, clientId, a.code, a.verifier);
    a.access = str(tokensOf(a.exchange)?.access_token);
    if (a.access) a.usage = await usageWith(ctx, BY, a.access);
    a.reuse = await exchangeCode(ctx, meta, clientId, a.code, a.verifier);
    if (a.access) a.usageAfterReuse = await usageWith(ctx, BY, a.access);
  }

  // authorization requests to refuse: no PKCE; a redirect_uri never registered
  const base = { response_type: "code", client_id: clientId, state: "x", scope: "openid" };
  rec.noChallenge = await ctx.http.call(BY, "GET", authorizeUrl(meta, { ...base, redirect_uri: REDIRECT_URI }), {
    auth: "none",
    redirect: "manual",
  });
  rec.unregisteredRedirect = await ctx.http.call(
    BY,
    "GET",
    authorizeUrl(meta, {
      ...base,
      redirect_uri: "http://127.0.0.1:9/not-registered",
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256",
    }),
    { auth: "none", redirect: "manual" },
  );

  // B: refresh rotation and reuse detection
  const b: NonNullable<OAuthFlowRecord["b"]> & { verifier: string } = await codeFlow(
    browser,
    ctx,
    meta,
    clientId,
    FULL,
  );
  rec.b = b;
  if (b.code) {
    b.exchange = await exchangeCode(ctx, meta, clientId, b.code, b.verifier);
    b.access = str(tokensOf(b.exchange)?.access_token);
    b.refresh = str(tokensOf(b.exchange)?.refresh_token);
    if (b.refresh) {
      b.refreshed = await tokenGrant(ctx, BY, meta, {
        grant_type: "refresh_token",
        refresh_token: b.refresh,
        client_id: clientId,
      });
      const newest = tokensOf(b.refreshed);
      b.reuseOld = await tokenGrant(ctx, BY, meta, {
        grant_type: "refresh_token",
        refresh_token: b.refresh,
        client_id: clientId,
      });
      const newestRefresh = str(newest?.refresh_token);
      if (newestRefresh && newestRefresh !== b.refresh)
        b.refreshNewest = await tokenGrant(ctx, BY, meta, {
          grant_type: "refresh_token",
          refresh_token: newestRefresh,
          client_id: clientId,
        });
      const newestAccess = str(newest?.access_token);
      if (newestAccess) b.usageNewest = await usageWith(ctx, BY, newestAccess);
    }
  }

  // C: no offline_access, then revocation
  const c: NonNullable<OAuthFlowRecord["c"]> & { verifier: string } = await codeFlow(
    browser,
    ctx,
    meta,
    clientId,
    "openid",
  );
  rec.c = c;
  if (c.code) {
    c.exchange = await exchangeCode(ctx, meta, clientId, c.code, c.verifier);
    c.access = str(tokensOf(c.exchange)?.access_token);
    if (c.access) {
      c.usageBefore = await usageWith(ctx, BY, c.access);
      if (typeof meta.revocation_endpoint === "string") {
        c.revoke = await postForm(ctx, BY, meta.revocation_endpoint, {
          token: c.access,
          token_type_hint: "access_token",
          client_id: clientId,
        });
        c.usageAfter = await usageWith(ctx, BY, c.access);
      }
    }
  }
  return rec;
}
