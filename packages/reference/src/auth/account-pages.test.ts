// The account pages (issue 15 "Account pages"): CSRF-protected forms, HttpOnly/SameSite (and Secure when asked)
// cookies, the starting credits, API keys created (shown once), rotated and revoked on the dashboard and working on
// the API against the same balance, and sign-in attempts rate-limited.

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redirectUriMatches } from "@plumbline-kit/platform/redirect-uris";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CookieJar, cookieJar } from "../../../../test-support/http-consent.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

let ref: RunningReference;
// the sign-in throttle's clock: it moves only when a test moves it, so no attempt ever lands in a new window by
// itself (its windows are fixed, 15 minutes from the epoch: a slow run used to straddle one and start again at 1)
let signInNow = Date.UTC(2026, 0, 1, 12, 5);
let secureRef: RunningReference;
const dirs: string[] = [];

beforeAll(async () => {
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), "plumbline-pages-"));
    dirs.push(d);
    return d;
  };
  ref = await startReference({
    port: 0,
    dataDir: dir(),
    startingCredits: 42,
    rateLimits: { perAccount: 0 },
    signInThrottle: { now: () => signInNow },
  });
  secureRef = await startReference({ port: 0, dataDir: dir(), cookieSecure: "always" });
}, 60_000);

afterAll(async () => {
  await ref?.close();
  await secureRef?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

async function get(base: string, path: string, jar: CookieJar) {
  const res = await fetch(`${base}${path}`, { headers: { cookie: jar.header() }, redirect: "manual" });
  jar.take(res);
  return { res, html: await res.text() };
}

async function post(base: string, path: string, jar: CookieJar, fields: Record<string, string>) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  jar.take(res);
  return { res, html: await res.text() };
}

async function signUp(base: string, login: string, jar = cookieJar()) {
  const page = await get(base, "/account/signup", jar);
  const r = await post(base, "/account/signup", jar, {
    _csrf: csrfOf(page.html),
    login,
    password: "password of some length",
  });
  return { jar, res: r.res };
}

describe("the account pages", () => {
  it("refuse a form without its CSRF token", async () => {
    const jar = cookieJar();
    await get(ref.url, "/account/signup", jar);
    const r = await post(ref.url, "/account/signup", jar, { login: "mallory", password: "password of some length" });
    expect(r.res.status).toBe(403);
    expect(r.html).toContain("did not come from this site");
  });

  it("set HttpOnly, SameSite=Lax cookies, Secure when asked", async () => {
    const { res } = await signUp(ref.url, "cookie-user");
    expect(res.status).toBe(303);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("plumbline_session="));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i);
    const secure = await signUp(secureRef.url, "secure-user");
    for (const c of secure.res.headers.getSetCookie()) expect(c).toMatch(/; Secure/i);
  });

  it("give a new account the starting credits, and manage its API keys against the same balance", async () => {
    const { jar } = await signUp(ref.url, "keyholder");
    const dash = await get(ref.url, "/account", jar);
    expect(dash.html).toContain('<strong id="balance">42</strong>');
    const created = await post(ref.url, "/account/keys", jar, { _csrf: csrfOf(dash.html) });
    const key = /id="new-key">([^<]+)</.exec(created.html)?.[1] as string;
    expect(key).toMatch(/^plb_/);
    const usage = await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(await usage.json()).toMatchObject({ usage: 42, credential_type: "api_key" });
    // shown once: the dashboard lists the prefix only
    const again = await get(ref.url, "/account", jar);
    expect(again.html).not.toContain(key);
    expect(again.html).toContain(key.slice(0, 12));

    const rotated = await post(ref.url, "/account/keys/rotate", jar, {
      _csrf: csrfOf(again.html),
      prefix: key.slice(0, 12),
    });
    const next = /id="new-key">([^<]+)</.exec(rotated.html)?.[1] as string;
    expect((await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect((await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${next}` } })).status).toBe(200);
    await post(ref.url, "/account/keys/revoke", jar, { _csrf: csrfOf(rotated.html), prefix: next.slice(0, 12) });
    expect((await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${next}` } })).status).toBe(401);
  });

  it("slow sign-in attempts down per username", async () => {
    await signUp(ref.url, "target-user");
    const jar = cookieJar();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const page = await get(ref.url, "/account/login", jar);
      const r = await post(ref.url, "/account/login", jar, {
        _csrf: csrfOf(page.html),
        login: "target-user",
        password: `wrong guess ${i}`,
      });
      statuses.push(r.res.status);
      // the window began at 12:00 and ends at 12:15: ten minutes left at 12:05
      if (r.res.status === 429) expect(r.res.headers.get("retry-after")).toBe("600");
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    // the window (15 minutes) passes: the user may try again
    signInNow += 15 * 60_000;
    const page = await get(ref.url, "/account/login", jar);
    const again = await post(ref.url, "/account/login", jar, {
      _csrf: csrfOf(page.html),
      login: "target-user",
      password: "wrong guess again",
    });
    expect(again.res.status).toBe(401);
  }, 60_000);
});

describe("registration", () => {
  it("takes loopback http, https and private-scheme redirect URIs only, and issues no secret", async () => {
    const register = (uris: string[], extra: Record<string, string> = {}) =>
      fetch(`${ref.url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: uris, ...extra }),
      });
    const plain = await register(["http://app.example/cb"]);
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: "invalid_redirect_uri" });
    const fine = await register(["http://127.0.0.1/cb", "https://app.example/cb"]);
    expect(fine.status).toBe(201);
    // a native app's private-use scheme (RFC 8252 §7.1), declared native as OpenID registration asks
    expect((await register(["com.example.app:/cb"], { application_type: "native" })).status).toBe(201);
    const body = (await fine.json()) as Record<string, unknown>;
    expect(body.token_endpoint_auth_method).toBe("none");
    expect(body.client_secret).toBeUndefined();
  });

  it("refuses any other JSON in RFC 7591's error shape (4xx, never a 500), as the mock does", async () => {
    const send = async (raw: string) => {
      const res = await fetch(`${ref.url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: raw,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const cases: Array<[string, string]> = [
      ['{"redirect_uris": -1}', "invalid_redirect_uri"],
      ['{"redirect_uris": {}}', "invalid_redirect_uri"],
      ['{"redirect_uris": "https://app.example/cb"}', "invalid_redirect_uri"],
      ['{"redirect_uris": []}', "invalid_redirect_uri"],
      ['{"redirect_uris": [1]}', "invalid_redirect_uri"],
      ['{"redirect_uris": ["not a uri"]}', "invalid_redirect_uri"],
      ["{}", "invalid_redirect_uri"],
      ["true", "invalid_request"],
      ["[]", "invalid_request"],
      ['{"redirect_uris": ["https://app.example/cb"], "grant_types": 5}', "invalid_client_metadata"],
    ];
    for (const [raw, error] of cases) {
      const { status, body } = await send(raw);
      expect([raw, status, body.error], JSON.stringify(body)).toEqual([raw, 400, error]);
      expect(typeof body.error_description, raw).toBe("string");
    }
    // metadata naming a URL the server would fetch is refused before any fetch: the listener sees no connection
    let connections = 0;
    const listener = createServer((_req, res) => res.end("[]")).on("connection", () => connections++);
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
    const at = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/list`;
    for (const field of ["sector_identifier_uri", "jwks_uri"]) {
      const { status, body } = await send(JSON.stringify({ redirect_uris: ["https://app.example/cb"], [field]: at }));
      expect([field, status, body.error]).toEqual([field, 400, "invalid_client_metadata"]);
    }
    // request objects are off, so request_uris is dropped from the registration, never fetched
    const requestUris = await send(JSON.stringify({ redirect_uris: ["https://app.example/cb"], request_uris: [at] }));
    expect(requestUris.status).toBe(201);
    expect(requestUris.body.request_uris).toBeUndefined();
    await new Promise((r) => listener.close(r));
    expect(connections).toBe(0);
    // the description says what is wrong, not oidc-provider's stock text for a redirect at /authorize
    expect((await send('{"redirect_uris": {}}')).body.error_description).toBe(
      "redirect_uris must list at least one URI",
    );
  });
});

describe("redirect URI matching (interface-spec OAuth flow rules; RFC 8252 §7.3)", () => {
  it("is exact, except for the port of a loopback http URI", () => {
    const registered = ["http://127.0.0.1/cb", "https://app.example/cb"];
    expect(redirectUriMatches("http://127.0.0.1:53121/cb", registered)).toBe(true);
    expect(redirectUriMatches("http://127.0.0.1/cb", registered)).toBe(true);
    expect(redirectUriMatches("http://127.0.0.1:53121/cb2", registered)).toBe(false);
    expect(redirectUriMatches("http://127.0.0.1:53121/cb?x=1", registered)).toBe(false);
    expect(redirectUriMatches("http://localhost:53121/cb", registered)).toBe(false);
    expect(redirectUriMatches("https://app.example:8443/cb", registered)).toBe(false);
    expect(redirectUriMatches("https://app.example/cb/", registered)).toBe(false);
    expect(redirectUriMatches("http://[::1]:4000/cb", ["http://[::1]/cb"])).toBe(true);
  });
});
