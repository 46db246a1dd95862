// The reference's authorization server on both databases (issue 15): what it stores survives a restart (clients,
// grants, tokens, sessions, the signing and cookie keys), so nobody is logged out; an access token charges the
// user's account and /usage names its client; denying consent grants nothing. PostgreSQL runs when
// PLUMBLINE_TEST_DATABASE_URL is set (CI sets PLUMBLINE_REQUIRE_POSTGRES=1: it cannot be skipped there).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../../../../test-support/account-signup.ts";
import { consentOverHttp } from "../../../../test-support/http-consent.ts";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { type ReferenceOptions, type RunningReference, startReference } from "../start-reference.ts";
import { freshFetch, pkce, register, tokenRequest } from "../test/oauth-test-client.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("PostgreSQL for the authorization-server tests", () => {
  it("is configured wherever it is required", () => {
    if (process.env.PLUMBLINE_REQUIRE_POSTGRES === "1") expect(PG, "PLUMBLINE_TEST_DATABASE_URL").toMatch(/^postgres/);
  });
});

/** A clean slate of its own: other files use the same test database at the same time. */
const cleanPostgres = () => freshPostgresSchema(PG as string, "auth_server_test");

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`the authorization server on ${kind}`, () => {
    it("keeps clients, grants, tokens and sessions across a restart, and charges the user's account", async () => {
      let store: Pick<ReferenceOptions, "dataDir" | "databaseUrl">;
      if (kind === "postgres") {
        store = { databaseUrl: await cleanPostgres() };
      } else {
        const dir = mkdtempSync(join(tmpdir(), "plumbline-auth-"));
        dirs.push(dir);
        store = { dataDir: dir };
      }
      const options: ReferenceOptions = { port: 0, ...store, rateLimits: { perAccount: 0 }, startingCredits: 7 };
      let ref: RunningReference = await startReference(options);
      try {
        const session = await signUpOverHttp(ref.url, "grace", "a long enough password");
        const client = await register(ref.url, ["http://127.0.0.1/cb"], "openid offline_access");
        const { verifier, challenge } = pkce();
        const redirectUri = "http://127.0.0.1:50123/cb";
        const back = new URL(
          await consentOverHttp({
            authorizeUrl: `${ref.url}/oauth/authorize?${new URLSearchParams({
              response_type: "code",
              client_id: client.client_id,
              redirect_uri: redirectUri,
              scope: "openid offline_access",
              state: "st",
              code_challenge: challenge,
              code_challenge_method: "S256",
            })}`,
            redirectUri,
            user: "grace",
            password: "a long enough password",
          }),
        );
        expect(back.searchParams.get("state")).toBe("st");
        const tokens = await tokenRequest(ref.url, globalThis.fetch, {
          grant_type: "authorization_code",
          code: back.searchParams.get("code") as string,
          redirect_uri: redirectUri,
          client_id: client.client_id,
          code_verifier: verifier,
        });
        expect(tokens.status).toBe(200);
        const { access_token, refresh_token } = tokens.body as { access_token: string; refresh_token: string };

        await ref.close();
        ref = await startReference({ ...options, port: ref.port });
        // a client of the restarted server: new connections (the pooled ones died with the old server)
        const fetch = freshFetch();

        const dashboard = await fetch(`${ref.url}/account`, { headers: { cookie: session } });
        expect(dashboard.status).toBe(200);
        expect(await dashboard.text()).toContain("grace");
        const usage = await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${access_token}` } });
        expect(await usage.json()).toMatchObject({ usage: 7, credential_type: "oauth", client_id: client.client_id });
        const refreshed = await tokenRequest(ref.url, fetch, {
          grant_type: "refresh_token",
          refresh_token,
          client_id: client.client_id,
        });
        expect(refreshed.status).toBe(200);
        // the old access token stays valid until it expires or is revoked; the reused refresh token ends the family
        const reuse = await tokenRequest(ref.url, fetch, {
          grant_type: "refresh_token",
          refresh_token,
          client_id: client.client_id,
        });
        expect(reuse.body).toMatchObject({ error: "invalid_grant" });
        const after = await fetch(`${ref.url}/usage`, {
          headers: { authorization: `Bearer ${(refreshed.body as { access_token: string }).access_token}` },
        });
        expect(after.status).toBe(401);
      } finally {
        await ref.close();
      }
    }, 60_000);
  });
}

describe("consent", () => {
  it("denied: the client gets access_denied and no code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-auth-"));
    dirs.push(dir);
    const ref = await startReference({ port: 0, dataDir: dir });
    try {
      await signUpOverHttp(ref.url, "linus", "another long password");
      const client = await register(ref.url, ["http://127.0.0.1:50124/cb"], "openid");
      const back = new URL(
        await consentOverHttp({
          authorizeUrl: `${ref.url}/oauth/authorize?${new URLSearchParams({
            response_type: "code",
            client_id: client.client_id,
            redirect_uri: "http://127.0.0.1:50124/cb",
            scope: "openid",
            state: "s2",
            code_challenge: pkce().challenge,
            code_challenge_method: "S256",
          })}`,
          redirectUri: "http://127.0.0.1:50124/cb",
          user: "linus",
          password: "another long password",
          deny: true,
        }),
      );
      expect(back.searchParams.get("error")).toBe("access_denied");
      expect(back.searchParams.get("code")).toBeNull();
      expect(back.searchParams.get("state")).toBe("s2");
    } finally {
      await ref.close();
    }
  }, 60_000);
});
