// The mock's authorization server (mock/README.md "OAuth"; interface-spec "OAuth flow", "Authentication" 2):
// registration, PKCE S256, refresh rotation, revocation, lifetimes on the mock clock, RFC error shapes.
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BROKE, KEY, useMock } from "./harness.ts";

const h = useMock({ clock: "manual" });
const REDIRECT = "http://127.0.0.1:7777/cb";

async function form(path: string, fields: Record<string, string>) {
  const res = await fetch(`${h.mock.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function register(extra: Record<string, unknown> = {}) {
  const r = await h.post(
    "/oauth/register",
    {
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      scope: "openid offline_access",
      ...extra,
    },
    null,
  );
  return r;
}

async function authorize(params: Record<string, string>) {
  const url = new URL(`${h.mock.url}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  return {
    status: res.status,
    location: res.headers.get("location"),
    body: res.status >= 400 ? await res.json() : null,
  };
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function tokensFor(clientId: string, scope = "openid offline_access") {
  const { verifier, challenge } = pkce();
  const a = await authorize({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: "s1",
    scope,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const code = new URL(a.location as string).searchParams.get("code") as string;
  return form("/oauth/token", {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });
}

describe("the mock's OAuth authorization server", () => {
  it("publishes RFC 8414 metadata at the URL the protected-resource metadata names", async () => {
    const prm = await h.get("/.well-known/oauth-protected-resource", null);
    const issuer = (prm.body as { authorization_servers: string[] }).authorization_servers[0];
    expect(issuer).toBe(h.mock.url);
    const meta = (await h.get("/.well-known/oauth-authorization-server", null)).body;
    expect(meta).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/token/revoke`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      registration_methods_supported: ["oauth_dynamic_client_registration"],
      identity_types_supported: ["oauth_user_authorization"],
      credential_types_supported: ["oauth_access_token", "oauth_refresh_token"],
    });
  });

  it("walks the flow: register, authorize, token, /usage as oauth with the key's balance, refresh, revoke", async () => {
    const reg = await register();
    expect(reg.status).toBe(201);
    const clientId = (reg.body as { client_id: string }).client_id;
    const { verifier, challenge } = pkce();
    const a = await authorize({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: "xyz",
      scope: "openid offline_access",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(a.status).toBe(302);
    const back = new URL(a.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("xyz");
    const code = back.searchParams.get("code") as string;
    const wrong = await form("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: pkce().verifier,
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const t = await form("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(t.status).toBe(200);
    expect(t.headers.get("cache-control")).toBe("no-store");
    expect(t.body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    const usage = await h.get("/usage", t.body.access_token);
    expect(usage.body).toMatchObject({ credential_type: "oauth", client_id: clientId, usage: await h.balance(KEY) });
    // a paid call with the token draws on the same balance as the key
    const before = await h.balance(KEY);
    expect((await h.post("/search", { query: "q" }, t.body.access_token)).status).toBe(200);
    expect(await h.balance(KEY)).toBe(before - 1);
    // refresh rotates: the old refresh token is spent, and presenting it again ends the grant
    const r1 = await form("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: t.body.refresh_token,
      client_id: clientId,
    });
    expect(r1.status).toBe(200);
    expect((await h.get("/usage", r1.body.access_token)).status).toBe(200);
    const again = await form("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: t.body.refresh_token,
      client_id: clientId,
    });
    expect(again).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const dead = await h.get("/usage", r1.body.access_token);
    expect(dead.status).toBe(401);
    // revocation (RFC 7009): 200, then the token gets the invalid_token challenge; unknown tokens answer 200 too
    const t2 = await tokensFor(clientId);
    expect((await form("/oauth/token/revoke", { token: t2.body.access_token, client_id: clientId })).status).toBe(200);
    const revoked = await h.get("/usage", t2.body.access_token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    expect((await form("/oauth/token/revoke", { token: "nope", client_id: clientId })).status).toBe(200);
  });

  it("expires access tokens on the mock clock, and grants the account the admin API picks", async () => {
    const clientId = ((await register()).body as { client_id: string }).client_id;
    expect((await h.admin("PUT", "/oauth", { grantKey: BROKE, accessTokenTtlSeconds: 60 })).status).toBe(200);
    const t = await tokensFor(clientId, "openid");
    expect(t.body.refresh_token).toBeUndefined(); // no offline_access, no refresh token
    expect((await h.get("/usage", t.body.access_token)).body).toMatchObject({ usage: 0, credential_type: "oauth" });
    await h.mock.admin.advanceClock(61_000);
    expect((await h.get("/usage", t.body.access_token)).status).toBe(401);
    await h.admin("PUT", "/oauth", { grantKey: null, accessTokenTtlSeconds: 3600 });
  });

  it("answers errors as RFC 6749 and RFC 7591 say", async () => {
    expect((await register({ redirect_uris: ["http://example.com/cb"] })).body).toMatchObject({
      error: "invalid_redirect_uri",
    });
    expect((await register({ response_types: ["token"] })).body).toMatchObject({ error: "invalid_client_metadata" });
    // metadata the reference's server would fetch is refused alike (issue 38)
    expect(await register({ sector_identifier_uri: "https://app.example/uris.json" })).toMatchObject({
      status: 400,
      body: { error: "invalid_client_metadata", error_description: expect.stringMatching(/^sector_identifier_uri/) },
    });
    const clientId = ((await register()).body as { client_id: string }).client_id;
    const { challenge } = pkce();
    const base = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: "st",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    // no redirect to an unregistered URI or for an unknown client (§4.1.2.1)
    expect(await authorize({ ...base, redirect_uri: "http://127.0.0.1:7777/other" })).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    expect(await authorize({ ...base, client_id: "nobody" })).toMatchObject({ status: 400 });
    const errorOf = async (p: Record<string, string>) => {
      const a = await authorize(p);
      const u = new URL(a.location as string);
      return [u.searchParams.get("error"), u.searchParams.get("state")];
    };
    expect(await errorOf({ ...base, response_type: "token" })).toEqual(["unsupported_response_type", "st"]);
    expect(await errorOf({ ...base, code_challenge_method: "plain" })).toEqual(["invalid_request", "st"]);
    const { code_challenge: _c, ...noPkce } = base;
    expect(await errorOf(noPkce)).toEqual(["invalid_request", "st"]);
    expect(await errorOf({ ...base, scope: "admin" })).toEqual(["invalid_scope", "st"]);
    expect(await form("/oauth/token", { grant_type: "password", client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: "unsupported_grant_type" },
    });
    expect(
      await form("/oauth/token", {
        grant_type: "authorization_code",
        client_id: "nobody",
        code: "x",
        code_verifier: "y",
      }),
    ).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(
      await form("/oauth/token", {
        grant_type: "authorization_code",
        client_id: clientId,
        code: "x",
        code_verifier: "y".repeat(43),
      }),
    ).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });
});
