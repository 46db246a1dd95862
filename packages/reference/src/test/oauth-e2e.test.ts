// The agent path end to end in a real browser (issue 15 "Done when"): a client registers itself, a person signs up
// and consents in headless Chromium, the client exchanges the code, calls the API with the access token (a paid
// /crawl of a loopback fixture page, then a /search that finds it in the reference's index), the charges show on
// the dashboard, the token refreshes, the refreshed token is revoked and answers 401 at once.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { launchHeadlessChromium } from "../../../../test-support/headless-chromium.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { ARTICLE_HTML } from "./fixture-pages.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";

let ref: RunningReference;
let site: FixtureSite;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-oauth-e2e-"));
  site = await serveSite({ "/article": { body: ARTICLE_HTML } });
  ref = await startReference({ port: 0, dataDir: dir, allowPrivateNetwork: true, rateLimits: { perAccount: 0 } });
  browser = await launchHeadlessChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ref?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("OAuth through the reference's authorization server, in a browser", () => {
  it("registers, signs up, consents, calls the API, shows the charge, refreshes, revokes", async () => {
    const meta = (await (await fetch(`${ref.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string
    >;
    const prm = (await (await fetch(`${ref.url}/.well-known/oauth-protected-resource`)).json()) as {
      authorization_servers: string[];
    };
    expect(prm.authorization_servers).toEqual([meta.issuer]);

    // a native client: registered without a port, redirected to whatever port it listens on (RFC 8252 §7.3)
    const reg = await fetch(meta.registration_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "e2e agent",
        redirect_uris: ["http://127.0.0.1/callback"],
        scope: "openid offline_access",
      }),
    });
    expect(reg.status).toBe(201);
    const client = (await reg.json()) as { client_id: string; client_secret?: string };
    expect(client.client_secret).toBeUndefined();

    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(8).toString("hex");
    // the native client's loopback listener on a port of its choosing: what the browser brings it is the answer
    const listener = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end("signed in; you may close this window");
    });
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
    onTestFinished(() => new Promise<void>((r) => listener.close(() => r())));
    const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const authorize = new URL(meta.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: "openid offline_access",
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();

    const page = await browser.newPage();
    await page.goto(authorize.href);
    await expect.poll(() => page.locator("h1").textContent(), { timeout: 30_000 }).toBe("Sign in");
    await page.getByRole("link", { name: "Create one" }).click();
    await page.getByLabel("Username").fill("ada");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.locator("h1").textContent(), { timeout: 30_000 }).toContain("Allow e2e agent");
    const [callback] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(redirectUri)),
      page.getByRole("button", { name: "Allow" }).click(),
    ]);
    // the page settles on the listener's answer (a port nobody answers leaves a navigation to Chromium's error page
    // in flight, which on a busy machine interrupted the next goto)
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    const back = new URL(callback.url());
    expect(back.searchParams.get("state")).toBe(state);
    expect(back.searchParams.get("iss")).toBe(meta.issuer);
    const code = back.searchParams.get("code") as string;

    const tok = await fetch(
      meta.token_endpoint,
      form({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: client.client_id,
        code_verifier: verifier,
      }),
    );
    expect(tok.status).toBe(200);
    const tokens = (await tok.json()) as { access_token: string; refresh_token?: string; token_type: string };
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.refresh_token).toBeTypeOf("string");

    const crawl = await fetch(`${ref.url}/crawl`, {
      method: "POST",
      headers: { ...bearer(tokens.access_token), "content-type": "application/json" },
      body: JSON.stringify({ url: `${site.url}/article` }),
    });
    expect(crawl.status).toBe(200);
    const title = ((await crawl.json()) as { results: { title: string } }).results.title;
    const search = await fetch(`${ref.url}/search`, {
      method: "POST",
      headers: { ...bearer(tokens.access_token), "content-type": "application/json" },
      body: JSON.stringify({ query: title }),
    });
    expect(search.status).toBe(200);
    const found = (await search.json()) as { results: Array<{ link: string }> };
    expect(found.results.map((r) => r.link)).toContain(`${site.url}/article`);
    const usage = (await (await fetch(`${ref.url}/usage`, { headers: bearer(tokens.access_token) })).json()) as Record<
      string,
      unknown
    >;
    expect(usage).toMatchObject({ credential_type: "oauth", client_id: client.client_id, usage: 98 });

    // the same account on the dashboard (the browser is still signed in from the sign-up)
    await page.goto(`${ref.url}/account`);
    expect(await page.locator("#balance").textContent()).toBe("98");
    const recent = await page.locator("table").first().textContent();
    expect(recent).toContain("crawl");
    expect(recent).toContain("search");

    const ref1 = await fetch(
      meta.token_endpoint,
      form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: client.client_id }),
    );
    expect(ref1.status).toBe(200);
    const refreshed = (await ref1.json()) as { access_token: string };
    expect((await fetch(`${ref.url}/usage`, { headers: bearer(refreshed.access_token) })).status).toBe(200);

    const rev = await fetch(
      meta.revocation_endpoint,
      form({ token: refreshed.access_token, token_type_hint: "access_token", client_id: client.client_id }),
    );
    expect(rev.status).toBe(200);
    const after = await fetch(`${ref.url}/usage`, { headers: bearer(refreshed.access_token) });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toMatch(/invalid_token/);
    await page.close();
  }, 60_000);
});
