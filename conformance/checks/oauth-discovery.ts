// The OAuth flow as a client walks it (interface-spec "Authentication" 2, "OAuth flow (Authorization Code with
// PKCE)", "OAuth registration contract"; RFC 9728, RFC 8414, RFC 7591, RFC 7636, RFC 7009): protected-resource
// metadata → authorization-server metadata → dynamic registration → authorize with PKCE S256 → token → /usage
// with the access token (credential_type oauth) → refresh → revoke → the token gets 401 invalid_token.
// Skipped, never passed, when the flow cannot be walked without a person: no authorization server named or
// reachable, no registration endpoint, or an authorization endpoint that asks a user to sign in.
import { createHash, randomBytes } from "node:crypto";
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

type Json = Record<string, unknown>;
const REDIRECT_URI = "http://127.0.0.1:9/plumbline-conformance/callback";
const FORM = "application/x-www-form-urlencoded";

/** RFC 8414 §3: the well-known suffix goes between the issuer's host and its path. */
export function authorizationServerMetadataUrl(issuer: string): string {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, "");
  return `${u.origin}/.well-known/oauth-authorization-server${path}`;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function usage(ctx: RunContext, by: string, token: string): Promise<Exchange> {
  return ctx.http.call(by, "GET", "/usage", { auth: { bearer: token } });
}

const oauthDiscovery: CheckDefinition = {
  id: "oauth-discovery",
  title:
    "The OAuth flow works end to end from the protected-resource metadata, and its tokens report credential_type oauth",
  severity: "major",
  section: "Authentication 2; OAuth flow (Authorization Code with PKCE)",
  basis: { kind: "contract" },
  async run(ctx) {
    const by = this.id;
    const failures: Failure[] = [];
    const fail = (message: string, ex: Exchange[], expected?: string, actual?: string) => {
      failures.push(failure(message, ex, expected, actual));
      return { failures };
    };

    // 1. protected-resource metadata, the advertised authorization server
    const prm = await ctx.http.call(by, "GET", "/.well-known/oauth-protected-resource", { auth: "none" });
    const servers = json<{ authorization_servers?: unknown }>(prm)?.authorization_servers;
    const issuer = Array.isArray(servers) && typeof servers[0] === "string" ? servers[0] : null;
    if (!issuer) return { failures, skip: "the protected-resource metadata names no authorization server" };

    // 2. authorization-server metadata
    let metadataUrl: string;
    try {
      metadataUrl = authorizationServerMetadataUrl(issuer);
    } catch {
      return fail("authorization_servers holds no URL", [prm], "an issuer URL", issuer);
    }
    const asm = await ctx.http.call(by, "GET", metadataUrl, { auth: "none" });
    const meta = json<Json>(asm);
    if (status(asm) !== 200 || !meta)
      return { failures, skip: `no authorization-server metadata is reachable at ${metadataUrl} (${describe(asm)})` };
    if (meta.issuer !== issuer)
      failures.push(
        failure(
          "the metadata's issuer is not the advertised server (RFC 8414 §3.3)",
          [asm],
          issuer,
          String(meta.issuer),
        ),
      );
    const methods = meta.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes("S256"))
      failures.push(
        failure("S256 is not among code_challenge_methods_supported", [asm], '["S256"]', JSON.stringify(methods)),
      );
    for (const k of ["authorization_endpoint", "token_endpoint"] as const)
      if (typeof meta[k] !== "string")
        failures.push(failure(`the metadata lacks ${k}`, [asm], "a URL", String(meta[k])));
    if (typeof meta.registration_endpoint !== "string")
      return failures.length
        ? { failures }
        : { failures, skip: "the authorization server offers no dynamic registration" };
    if (failures.length) return { failures };

    // 3. dynamic client registration (a public client)
    const reg = await ctx.http.call(by, "POST", meta.registration_endpoint, {
      auth: "none",
      body: {
        client_name: "plumbline conformance",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "openid offline_access",
      },
    });
    const clientId = json<{ client_id?: unknown }>(reg)?.client_id;
    if (status(reg) !== 201 || typeof clientId !== "string")
      return fail("dynamic registration failed (RFC 7591 §3.2.1)", [reg], "201 with client_id", describe(reg));

    // 4-5. PKCE verifier and S256 challenge; the authorization request
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const state = randomBytes(12).toString("hex");
    const authorizeUrl = new URL(meta.authorization_endpoint as string);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      state,
      scope: "openid offline_access",
      code_challenge: challenge,
      code_challenge_method: "S256",
    }))
      authorizeUrl.searchParams.set(k, v);
    const auth = await ctx.http.call(by, "GET", authorizeUrl.href, { auth: "none", redirect: "manual" });
    const location = auth.response?.headers.location;
    const s = status(auth) ?? 0;
    if (s < 300 || s >= 400 || !location)
      return { failures, skip: `the authorization endpoint wants a person to sign in and approve (${describe(auth)})` };
    const back = new URL(location, authorizeUrl);
    if (`${back.origin}${back.pathname}` !== REDIRECT_URI)
      return fail(
        "the authorization redirect does not go to the registered redirect_uri",
        [auth],
        REDIRECT_URI,
        location,
      );
    if (back.searchParams.get("state") !== state)
      return fail(
        "the authorization redirect does not return state",
        [auth],
        state,
        String(back.searchParams.get("state")),
      );
    const code = back.searchParams.get("code");
    if (!code) return fail("the authorization redirect carries no code", [auth], "code=…", location);

    // 7. the code for tokens, with the verifier
    const tok = await ctx.http.call(by, "POST", meta.token_endpoint as string, {
      auth: "none",
      contentType: FORM,
      raw: form({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
    const tokens = json<{ access_token?: unknown; token_type?: unknown; refresh_token?: unknown }>(tok);
    if (status(tok) !== 200 || typeof tokens?.access_token !== "string")
      return fail("the token exchange failed (RFC 6749 §5.1)", [tok], "200 with access_token", describe(tok));
    if (String(tokens.token_type).toLowerCase() !== "bearer")
      failures.push(failure("token_type is not Bearer", [tok], "Bearer", String(tokens.token_type)));

    // 8. the access token on the API: the account's balance, credential_type oauth (Authentication 2)
    const used = await usage(ctx, by, tokens.access_token);
    const body = json<{ usage?: unknown; credential_type?: unknown }>(used);
    if (status(used) !== 200 || body?.credential_type !== "oauth")
      failures.push(
        failure("GET /usage with the access token", [used], "200 with credential_type oauth", describe(used)),
      );
    const notes: string[] = [];
    if (typeof body?.usage === "number") notes.push(`the token's account holds ${body.usage} credits`);

    // refresh ("A refresh token is issued only when the scope offline_access is requested": it was)
    let access = tokens.access_token;
    if (typeof tokens.refresh_token !== "string")
      failures.push(failure("no refresh token though offline_access was requested", [tok], "refresh_token", "(none)"));
    else {
      const ref = await ctx.http.call(by, "POST", meta.token_endpoint as string, {
        auth: "none",
        contentType: FORM,
        raw: form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }),
      });
      const refreshed = json<{ access_token?: unknown }>(ref)?.access_token;
      if (status(ref) !== 200 || typeof refreshed !== "string")
        failures.push(failure("the refresh grant failed", [ref], "200 with access_token", describe(ref)));
      else access = refreshed;
    }

    // revocation (RFC 7009): the revoked token is refused with the invalid_token challenge
    if (typeof meta.revocation_endpoint === "string") {
      const rev = await ctx.http.call(by, "POST", meta.revocation_endpoint, {
        auth: "none",
        contentType: FORM,
        raw: form({ token: access, token_type_hint: "access_token", client_id: clientId }),
      });
      if (status(rev) !== 200) failures.push(failure("revocation failed (RFC 7009 §2.2)", [rev], "200", describe(rev)));
      const after = await usage(ctx, by, access);
      const challenge = after.response?.headers["www-authenticate"] ?? "";
      if (status(after) !== 401 || !/invalid_token/.test(challenge))
        failures.push(
          failure(
            "a revoked access token was not refused",
            [after],
            '401 with Bearer error="invalid_token"',
            describe(after),
          ),
        );
    } else notes.push("the authorization server names no revocation endpoint");
    return failures.length ? { failures, notes } : ok(notes);
  },
};

export const OAUTH_CHECKS = [oauthDiscovery];
