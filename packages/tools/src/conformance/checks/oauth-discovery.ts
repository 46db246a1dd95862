// The OAuth checks (interface-spec "Authentication" 2, "OAuth registration contract", "OAuth flow (Authorization
// Code with PKCE)"; RFC 9728, 8414, 7591, 7636, 6749, 7009, OAuth 2.1 §4.3.1), judging the exchanges of one shared
// walk of the flow (probes/oauth-flow.ts). Skipped, never passed, when the flow cannot be walked: no authorization
// server named or reachable, no registration endpoint, or a sign-in page and no --oauth-user to sign in with.

import { plural } from "@plumbline-kit/contract/report/plural";
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import { isInvalidGrant, isInvalidToken, type Json, REDIRECT_URI, tokensOf } from "../oauth-client.ts";
import { type OAuthFlowRecord, oauthFlowProbe } from "../probes/oauth-flow.ts";
import type { CheckDefinition, CheckOutcome, Exchange, Failure, RunContext } from "../types.ts";

export { authorizationServerMetadataUrl } from "../oauth-client.ts";

const FLOW = "OAuth flow (Authorization Code with PKCE)";

/** The probe's record, or the outcome to return at once (skipped; or failed when registration broke). */
async function flow(ctx: RunContext): Promise<{ rec: OAuthFlowRecord; stop?: CheckOutcome }> {
  const rec = await ctx.probe(oauthFlowProbe);
  if (rec.skip) return { rec, stop: { failures: [], skip: rec.skip, skipKind: rec.skipKind, notes: rec.notes } };
  if (!rec.meta || !rec.clientId)
    return { rec, stop: { failures: [], skip: "the flow stopped before registration (see oauth-discovery)" } };
  return { rec };
}

type Fail = (message: string, ex: (Exchange | undefined)[], expected?: string, actual?: string) => void;
function collector(): { failures: Failure[]; fail: Fail } {
  const failures: Failure[] = [];
  return {
    failures,
    fail: (message, ex, expected, actual) =>
      failures.push(
        failure(
          message,
          ex.filter((e): e is Exchange => e !== undefined),
          expected,
          actual,
        ),
      ),
  };
}
const seen = (ex: Exchange | undefined) => (ex ? describe(ex) : "(not reached)");

const oauthDiscovery: CheckDefinition = {
  id: "oauth-discovery",
  title:
    "The OAuth flow works end to end from the protected-resource metadata, and its tokens report credential_type oauth",
  severity: "major",
  section: "Authentication 2; OAuth flow (Authorization Code with PKCE)",
  basis: { kind: "contract" },
  probes: [oauthFlowProbe],
  async run(ctx) {
    const rec = await ctx.probe(oauthFlowProbe);
    const { failures, fail } = collector();
    if (rec.issuer && rec.metadata) {
      const meta = json<Json>(rec.metadata);
      if (meta && meta.issuer !== rec.issuer)
        fail(
          "the metadata's issuer is not the advertised server (RFC 8414 §3.3)",
          [rec.metadata],
          rec.issuer,
          String(meta.issuer),
        );
      const methods = meta?.code_challenge_methods_supported;
      if (meta && (!Array.isArray(methods) || !methods.includes("S256")))
        fail("S256 is not among code_challenge_methods_supported", [rec.metadata], '["S256"]', JSON.stringify(methods));
      for (const k of ["authorization_endpoint", "token_endpoint"] as const)
        if (meta && typeof meta[k] !== "string")
          fail(`the metadata lacks ${k}`, [rec.metadata], "a URL", String(meta[k]));
    } else if (rec.issuer && !rec.skip)
      fail("authorization_servers holds no URL", [rec.prm], "an issuer URL", rec.issuer);
    if (rec.skip)
      return failures.length ? { failures } : { failures, skip: rec.skip, skipKind: rec.skipKind, notes: rec.notes };
    if (rec.registration && !rec.clientId)
      fail(
        "dynamic registration failed (RFC 7591 §3.2.1)",
        [rec.registration],
        "201 with client_id",
        describe(rec.registration),
      );
    const a = rec.a;
    if (a?.authorization && !a.code)
      fail(
        "the authorization request gave no code",
        [a.authorization.exchange],
        "a redirect with code=…",
        a.authorization.back?.href ?? seen(a.authorization.exchange),
      );
    const tokens = a?.exchange ? tokensOf(a.exchange) : undefined;
    if (a?.exchange && (status(a.exchange) !== 200 || typeof tokens?.access_token !== "string"))
      fail("the token exchange failed (RFC 6749 §5.1)", [a.exchange], "200 with access_token", describe(a.exchange));
    else if (a?.exchange && String(tokens?.token_type).toLowerCase() !== "bearer")
      fail("token_type is not Bearer", [a.exchange], "Bearer", String(tokens?.token_type));
    // Authentication 2: the token's account, reported as oauth with the client that holds it
    const body = a?.usage
      ? json<{ usage?: unknown; credential_type?: unknown; client_id?: unknown }>(a.usage)
      : undefined;
    if (a?.access && (status(a.usage as Exchange) !== 200 || body?.credential_type !== "oauth"))
      fail("GET /usage with the access token", [a.usage], "200 with credential_type oauth", seen(a.usage));
    else if (a?.access && body?.client_id !== rec.clientId)
      fail("/usage does not name the token's client", [a.usage], String(rec.clientId), String(body?.client_id));
    const notes = [...rec.notes];
    if (typeof body?.usage === "number") notes.push(`the token's account holds ${plural(body.usage, "credit")}`);
    return failures.length ? { failures, notes } : ok(notes);
  },
};

const oauthRegistration: CheckDefinition = {
  id: "oauth-registration",
  title: "A public client registers itself with no e-mail, key or secret, and needs no secret afterwards",
  severity: "major",
  section: "OAuth registration contract",
  basis: { kind: "contract" },
  probes: [oauthFlowProbe],
  async run(ctx) {
    const { rec, stop } = await flow(ctx);
    if (stop) return stop;
    const { failures, fail } = collector();
    const reg = json<Json>(rec.registration as Exchange);
    if (reg?.token_endpoint_auth_method !== undefined && reg.token_endpoint_auth_method !== "none")
      fail(
        "the client was not registered as a public client",
        [rec.registration],
        "token_endpoint_auth_method none",
        String(reg.token_endpoint_auth_method),
      );
    const uris = reg?.redirect_uris;
    if (!Array.isArray(uris) || !uris.includes(REDIRECT_URI))
      fail(
        "the registration answer does not carry the redirect URI registered",
        [rec.registration],
        REDIRECT_URI,
        JSON.stringify(uris),
      );
    // the client never sends a secret: an exchange that worked proves none is needed
    if (rec.a?.exchange && status(rec.a.exchange) !== 200)
      fail("the code exchange without a client secret failed", [rec.a.exchange], "200", describe(rec.a.exchange));
    return failures.length
      ? { failures }
      : ok(rec.a?.exchange ? [] : ["no code was obtained: the exchange without secret is unjudged"]);
  },
};

const oauthCodeExchange: CheckDefinition = {
  id: "oauth-code-exchange",
  title:
    "PKCE S256 is enforced, state is echoed, and a wrong verifier, a wrong or unregistered redirect URI and a reused code are refused",
  severity: "critical",
  section: FLOW,
  basis: { kind: "contract" },
  probes: [oauthFlowProbe],
  async run(ctx) {
    const { rec, stop } = await flow(ctx);
    if (stop) return stop;
    const { failures, fail } = collector();
    const a = rec.a;
    const notes: string[] = [];
    if (!a?.code) return { failures, skip: "no authorization code was obtained (see oauth-discovery)" };
    if (a.authorization.back?.searchParams.get("state") !== a.state)
      fail(
        "the authorization redirect does not return state",
        [a.authorization.exchange],
        a.state,
        String(a.authorization.back?.searchParams.get("state")),
      );
    if (!a.wrongVerifier || !isInvalidGrant(a.wrongVerifier))
      fail(
        "a code_verifier that does not match the challenge was not refused (RFC 7636 §4.6)",
        [a.wrongVerifier],
        "400 invalid_grant",
        seen(a.wrongVerifier),
      );
    if (!a.wrongRedirect || !isInvalidGrant(a.wrongRedirect))
      fail(
        "a redirect_uri other than the authorization request's was not refused (RFC 6749 §4.1.3)",
        [a.wrongRedirect],
        "400 invalid_grant",
        seen(a.wrongRedirect),
      );
    if (!a.reuse || !isInvalidGrant(a.reuse))
      fail("a code used twice was not refused (RFC 6749 §4.1.2)", [a.reuse], "400 invalid_grant", seen(a.reuse));
    if (a.usageAfterReuse && isInvalidToken(a.usageAfterReuse))
      notes.push("the reused code's tokens were revoked (RFC 6749 §4.1.2 SHOULD)");
    else if (a.usageAfterReuse)
      notes.push("the reused code's tokens still work (RFC 6749 §4.1.2 says they SHOULD be revoked)");
    // without code_challenge: refused at once (a redirect with error, or an error page), never a code
    const nc = rec.noChallenge;
    const ncLocation = nc?.response?.headers.location;
    const ncBack = ncLocation ? new URL(ncLocation, String(rec.meta?.authorization_endpoint)) : null;
    const ncStatus = nc ? (status(nc) ?? 0) : 0;
    if (ncBack?.searchParams.get("code") || !(ncStatus >= 400 || ncBack?.searchParams.get("error")))
      fail(
        "an authorization request without code_challenge was not refused (PKCE S256 required)",
        [nc],
        "a redirect with error=invalid_request, or a 4xx",
        ncLocation ?? seen(nc),
      );
    // an unregistered redirect_uri: the user agent is never sent there (RFC 6749 §4.1.2.1)
    const ur = rec.unregisteredRedirect;
    const urLocation = ur?.response?.headers.location ?? "";
    if (!ur || urLocation.includes("/not-registered"))
      fail(
        "an unregistered redirect_uri was redirected to",
        [ur],
        "an error page, no redirect to it",
        urLocation || seen(ur),
      );
    return failures.length ? { failures, notes } : ok(notes);
  },
};

const oauthRefresh: CheckDefinition = {
  id: "oauth-refresh",
  title: "A refresh token comes only with offline_access, rotates on use, and its reuse revokes the whole family",
  severity: "critical",
  section: FLOW,
  basis: { kind: "contract" },
  probes: [oauthFlowProbe],
  async run(ctx) {
    const { rec, stop } = await flow(ctx);
    if (stop) return stop;
    const { failures, fail } = collector();
    const { b, c } = rec;
    if (c?.exchange && status(c.exchange) === 200 && tokensOf(c.exchange)?.refresh_token !== undefined)
      fail(
        "a refresh token was issued without offline_access",
        [c.exchange],
        "no refresh_token",
        "refresh_token present",
      );
    if (!b?.exchange || status(b.exchange) !== 200)
      return failures.length ? { failures } : { failures, skip: "no tokens were obtained with offline_access" };
    if (!b.refresh) {
      fail("no refresh token though offline_access was requested", [b.exchange], "refresh_token", "(none)");
      return { failures };
    }
    const rotated = b.refreshed ? tokensOf(b.refreshed) : undefined;
    if (!b.refreshed || status(b.refreshed) !== 200 || typeof rotated?.access_token !== "string")
      fail("the refresh grant failed", [b.refreshed], "200 with access_token", seen(b.refreshed));
    else if (typeof rotated.refresh_token !== "string" || rotated.refresh_token === b.refresh)
      fail(
        "the refresh token was not rotated (OAuth 2.1 §4.3.1: public clients)",
        [b.refreshed],
        "a new refresh_token",
        String(rotated.refresh_token),
      );
    if (!b.reuseOld || !isInvalidGrant(b.reuseOld))
      fail("a rotated-out refresh token was accepted again", [b.reuseOld], "400 invalid_grant", seen(b.reuseOld));
    if (b.refreshNewest && !isInvalidGrant(b.refreshNewest))
      fail(
        "after a refresh token's reuse, the newest refresh token of its family still works",
        [b.refreshNewest],
        "400 invalid_grant",
        seen(b.refreshNewest),
      );
    if (b.usageNewest && !isInvalidToken(b.usageNewest))
      fail(
        "after a refresh token's reuse, the family's access token still works",
        [b.usageNewest],
        '401 with Bearer error="invalid_token"',
        seen(b.usageNewest),
      );
    return failures.length ? { failures } : ok();
  },
};

const oauthRevocation: CheckDefinition = {
  id: "oauth-revocation",
  title: "A revoked access token is refused at once with the invalid_token challenge",
  severity: "major",
  section: "OAuth flow (Authorization Code with PKCE); Authentication 4",
  basis: { kind: "contract" },
  probes: [oauthFlowProbe],
  async run(ctx) {
    const { rec, stop } = await flow(ctx);
    if (stop) return stop;
    const { failures, fail } = collector();
    const c = rec.c;
    if (typeof rec.meta?.revocation_endpoint !== "string")
      return { failures, skip: "the authorization server names no revocation endpoint" };
    if (!c?.access) return { failures, skip: "no access token was obtained without offline_access" };
    if (c.usageBefore && status(c.usageBefore) !== 200)
      fail("the access token did not work before its revocation", [c.usageBefore], "200", seen(c.usageBefore));
    if (!c.revoke || status(c.revoke) !== 200)
      fail("revocation failed (RFC 7009 §2.2)", [c.revoke], "200", seen(c.revoke));
    if (!c.usageAfter || !isInvalidToken(c.usageAfter))
      fail(
        "a revoked access token was not refused",
        [c.usageAfter],
        '401 with Bearer error="invalid_token"',
        seen(c.usageAfter),
      );
    return failures.length ? { failures } : ok();
  },
};

export const OAUTH_CHECKS = [oauthDiscovery, oauthRegistration, oauthCodeExchange, oauthRefresh, oauthRevocation];
