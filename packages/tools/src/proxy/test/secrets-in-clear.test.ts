// Secrets are never written in clear (issue 38): the reference and the mock run with --log, each behind a proxy run
// with --record, as an operator runs them; requests carry keys in the query string (beside the header), and an OAuth
// authorization-code + PKCE flow runs through each proxy (the reference's authorization server with sign-up and
// consent; the mock's own), with a refresh and API calls on the tokens. Then every log line, recording and report
// written is searched for the keys, the password, the codes, the verifiers, the challenges and the tokens: none is
// there, while the recordings still load in the mock's replay.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMock } from "@plumbline-kit/mock/start-mock";
import { pkce, register, tokenRequest } from "@plumbline-kit/reference/test/oauth-test-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signUpOverHttp } from "../../../../../test-support/account-signup.ts";
import { type CliProcess, startCliProcess } from "../../../../../test-support/cli-process.ts";
import { consentOverHttp } from "../../../../../test-support/http-consent.ts";
import { startMockProcess } from "../../../../../test-support/mock-process.ts";
import { startReferenceProcess } from "../../../../../test-support/reference-process.ts";

const REF_KEY = "plb_ref_query_key_9f8e7d6c5b4a";
const MOCK_KEY = "plb_mock_query_key_1a2b3c4d5e6f";
const PASSWORD = "a long enough password 73x";
const REDIRECT = "http://127.0.0.1:50177/cb";

let dir: string;
const processes: { name: string; proc: CliProcess; out: string[] }[] = [];
/** every secret that went over the wire */
const secrets = new Map<string, string>();

function watch(name: string, proc: CliProcess) {
  const out: string[] = [];
  proc.child.stdout?.on("data", (c: Buffer) => out.push(c.toString()));
  proc.child.stderr?.on("data", (c: Buffer) => out.push(c.toString()));
  processes.push({ name, proc, out });
  return proc;
}

const startProxyProcess = (upstream: string, name: string) =>
  startCliProcess(
    ["proxy", "--upstream", upstream, "--port", "0", "--record", join(dir, `${name}.har`)].concat([
      "--report-dir",
      join(dir, `${name}-report`),
    ]),
    "proxy",
  );

let ref: CliProcess;
let mock: CliProcess;
let refProxy: CliProcess;
let mockProxy: CliProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-secrets-"));
  ref = watch(
    "reference",
    await startReferenceProcess({ keys: [`${REF_KEY}:100`], args: ["--log", "--rate-limit", "0"] }),
  );
  mock = watch("mock", await startMockProcess(["--port", "0", "--log", "--key", `${MOCK_KEY}:100`]));
  refProxy = watch("reference proxy", await startProxyProcess(ref.url, "reference"));
  mockProxy = watch("mock proxy", await startProxyProcess(mock.url, "mock"));
}, 90_000);
afterAll(async () => {
  for (const p of processes) await p.proc.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Calls with the key in the query string (a client's mistake, or an old habit), beside the header. */
async function keyInQuery(base: string, key: string) {
  secrets.set(`key ${key.slice(0, 8)}`, key);
  const auth = { authorization: `Bearer ${key}` };
  expect((await fetch(`${base}/usage?api_key=${key}`, { headers: auth })).status).toBe(200);
  const search = await fetch(`${base}/search?key=${key}&access_token=${key}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ query: "plumbline" }),
  });
  expect(search.status).toBe(200);
  // no header: the query string is all it sent, refused, and still not written down
  expect((await fetch(`${base}/usage?token=${key}`)).status).toBe(401);
}

/** Tokens as the API's callers use them: an API call, then a refresh, then the refreshed token. */
async function useTokens(base: string, tokens: Record<string, unknown>, clientId: string, who: string) {
  const access = tokens.access_token as string;
  const refresh = tokens.refresh_token as string;
  expect(access).toEqual(expect.any(String));
  expect(refresh).toEqual(expect.any(String));
  secrets.set(`${who} access token`, access);
  secrets.set(`${who} refresh token`, refresh);
  expect((await fetch(`${base}/usage`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);
  const refreshed = await tokenRequest(base, fetch, {
    grant_type: "refresh_token",
    refresh_token: refresh,
    client_id: clientId,
  });
  expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  secrets.set(`${who} refreshed access token`, refreshed.body.access_token as string);
  if (typeof refreshed.body.refresh_token === "string")
    secrets.set(`${who} rotated refresh token`, refreshed.body.refresh_token);
  const again = await fetch(`${base}/usage`, {
    headers: { authorization: `Bearer ${refreshed.body.access_token as string}` },
  });
  expect(again.status).toBe(200);
}

it("no key, password, code, verifier, challenge or token in any log, recording or report", async () => {
  await keyInQuery(refProxy.url, REF_KEY);
  await keyInQuery(mockProxy.url, MOCK_KEY);

  // the reference's authorization server, through the proxy: sign-up, consent, code, tokens
  await signUpOverHttp(refProxy.url, "ada", PASSWORD);
  secrets.set("password", PASSWORD);
  const client = await register(refProxy.url, ["http://127.0.0.1/cb"], "openid offline_access");
  const refPkce = pkce();
  secrets.set("reference verifier", refPkce.verifier);
  secrets.set("reference challenge", refPkce.challenge);
  const back = new URL(
    await consentOverHttp({
      authorizeUrl: `${refProxy.url}/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        scope: "openid offline_access",
        state: "st",
        code_challenge: refPkce.challenge,
        code_challenge_method: "S256",
      })}`,
      redirectUri: REDIRECT,
      user: "ada",
      password: PASSWORD,
    }),
  );
  const refCode = back.searchParams.get("code") as string;
  expect(refCode).toEqual(expect.any(String));
  secrets.set("reference code", refCode);
  const refTokens = await tokenRequest(refProxy.url, fetch, {
    grant_type: "authorization_code",
    code: refCode,
    redirect_uri: REDIRECT,
    client_id: client.client_id,
    code_verifier: refPkce.verifier,
  });
  expect(refTokens.status).toBe(200);
  await useTokens(refProxy.url, refTokens.body, client.client_id, "reference");

  // the mock's authorization server, through its proxy
  const registered = await fetch(`${mockProxy.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "secrets test",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      scope: "offline_access",
    }),
  });
  expect(registered.status).toBe(201);
  const mockClient = (await registered.json()) as { client_id: string };
  const mockPkce = pkce();
  secrets.set("mock verifier", mockPkce.verifier);
  secrets.set("mock challenge", mockPkce.challenge);
  const authorize = await fetch(
    `${mockProxy.url}/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: mockClient.client_id,
      redirect_uri: REDIRECT,
      scope: "offline_access",
      state: "st",
      code_challenge: mockPkce.challenge,
      code_challenge_method: "S256",
    })}`,
    { redirect: "manual" },
  );
  expect(authorize.status).toBe(302);
  const mockCode = new URL(authorize.headers.get("location") as string).searchParams.get("code") as string;
  expect(mockCode).toEqual(expect.any(String));
  secrets.set("mock code", mockCode);
  const mockTokens = await tokenRequest(mockProxy.url, fetch, {
    grant_type: "authorization_code",
    code: mockCode,
    redirect_uri: REDIRECT,
    client_id: mockClient.client_id,
    code_verifier: mockPkce.verifier,
  });
  expect(mockTokens.status).toBe(200);
  await useTokens(mockProxy.url, mockTokens.body, mockClient.client_id, "mock");

  // everything is written: the proxies write their recordings and reports on SIGTERM, the servers' logs end
  for (const p of processes) await p.proc.stop();
  // (the mock's start banner lists the keys it was given on its command line, by design: that line is left out)
  const banner = /^ {2}key \S+: \d+ credits.*$/gm;
  const written: { name: string; text: string }[] = processes.map((p) => ({
    name: p.name,
    text: p.out.join("").replace(banner, ""),
  }));
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
    );
  for (const f of files(dir)) written.push({ name: f, text: readFileSync(f, "utf8") });

  const leaks: string[] = [];
  // as sent, percent-encoded, or form-encoded (spaces as +)
  for (const { name, text } of written)
    for (const [what, value] of secrets)
      if (
        [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)].some((v) =>
          text.includes(v),
        )
      )
        leaks.push(`${what} in ${name}`);
  expect(leaks, leaks.join("; ")).toEqual([]);

  // the checks can see what they look for: both servers logged requests, both recordings hold the flows
  const logOf = (name: string) => written.find((w) => w.name === name)?.text ?? "";
  expect(logOf("reference")).toContain('"url":"/usage?api_key=[REDACTED]"');
  expect(logOf("mock")).toContain("/oauth/authorize?");
  const refHar = JSON.parse(readFileSync(join(dir, "reference.har"), "utf8")) as {
    log: { entries: { request: { url: string; postData?: { text: string } } }[] };
  };
  const tokenPosts = refHar.log.entries.filter((e) => e.request.url.endsWith("/oauth/token"));
  expect(tokenPosts).toHaveLength(2);
  expect(tokenPosts[0].request.postData?.text).toContain("code=[REDACTED]");
  expect(written.filter((w) => w.name.endsWith(".har"))).toHaveLength(2);
  expect(secrets.size).toBeGreaterThanOrEqual(15);

  // the recordings still load in the mock's replay
  for (const har of ["reference.har", "mock.har"]) {
    const replaying = await startMock({ port: 0, replay: join(dir, har) });
    try {
      expect(replaying.replay?.answers, har).toBeGreaterThan(0);
    } finally {
      await replaying.close();
    }
  }
}, 120_000);
