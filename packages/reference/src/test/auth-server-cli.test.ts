// `plumbline reference auth-server`: the authorization server and account pages as their own process, the API
// started apart with --authorization-server naming it, both on one database (issue 15: "run as its own process ...
// for deployments that separate them"). A token issued there works here, and revoking it there refuses it here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@plumbline-kit/tools/load/peers/peer-processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../../../../test-support/account-signup.ts";
import { type CliProcess, startCliProcess } from "../../../../test-support/cli-process.ts";
import { consentOverHttp } from "../../../../test-support/http-consent.ts";
import { pkce, register, tokenRequest } from "./oauth-test-client.ts";

let auth: CliProcess;
let api: CliProcess;
const dir = mkdtempSync(join(tmpdir(), "plumbline-split-"));

beforeAll(async () => {
  // the API's port is chosen first: the authorization server issues tokens for resources at its origin
  const apiPort = await freePort();
  auth = await startCliProcess(
    [
      "reference",
      "auth-server",
      "--port",
      "0",
      "--data-dir",
      dir,
      "--starting-credits",
      "5",
      "--resource-origin",
    ].concat(`http://127.0.0.1:${apiPort}`),
    "auth-server",
  );
  api = await startCliProcess(
    ["reference", "--port", String(apiPort), "--data-dir", dir, "--authorization-server", auth.url],
    "reference",
  );
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await auth?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the authorization server apart from the API", () => {
  it("is named by the API's metadata, and its tokens work on the API until revoked", async () => {
    const prm = (await (await fetch(`${api.url}/.well-known/oauth-protected-resource`)).json()) as {
      authorization_servers: string[];
    };
    expect(prm.authorization_servers).toEqual([auth.url]);
    const meta = (await (await fetch(`${auth.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string
    >;
    expect(meta.issuer).toBe(auth.url);
    // the API mounts no authorization server of its own
    expect((await fetch(`${api.url}/oauth/register`, { method: "POST" })).status).toBe(404);

    await signUpOverHttp(auth.url, "split-user", "a password for the split");
    const client = await register(auth.url, ["http://127.0.0.1/cb"], "openid");
    const { verifier, challenge } = pkce();
    const redirectUri = "http://127.0.0.1:50200/cb";
    // RFC 8707, as the MCP SDK's client sends it: the API's MCP endpoint, on another origin than the issuer's
    const authorizeUrl = (resource: string) =>
      `${meta.authorization_endpoint}?${new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: redirectUri,
        scope: "openid",
        state: "s",
        code_challenge: challenge,
        code_challenge_method: "S256",
        resource,
      })}`;
    const back = new URL(
      await consentOverHttp({
        authorizeUrl: authorizeUrl(`${api.url}/mcp`),
        redirectUri,
        user: "split-user",
        password: "a password for the split",
      }),
    );
    const tokens = await tokenRequest(auth.url, fetch, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code") as string,
      redirect_uri: redirectUri,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: `${api.url}/mcp`,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const access = tokens.body.access_token as string;
    const usage = await fetch(`${api.url}/usage`, { headers: { authorization: `Bearer ${access}` } });
    expect(await usage.json()).toMatchObject({ usage: 5, credential_type: "oauth", client_id: client.client_id });
    const revoked = await fetch(meta.revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: access, client_id: client.client_id }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await fetch(`${api.url}/usage`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
    // a resource on an origin it was not given is refused
    const elsewhere = await fetch(authorizeUrl("http://elsewhere.test/mcp"), { redirect: "manual" });
    expect(new URL(elsewhere.headers.get("location") ?? "", auth.url).searchParams.get("error")).toBe("invalid_target");
  }, 60_000);
});
