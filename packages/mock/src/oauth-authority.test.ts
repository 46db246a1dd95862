// The authorization server's memory stays bounded in a long-running mock: expired codes and tokens are swept out
// once a map grows past its bound, live ones are kept.
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { createMemoryAccounts } from "./memory-accounts.ts";
import { createOAuthAuthority } from "./oauth-authority.ts";

it("sweeps expired codes and tokens once there are more than 10 000 of a kind", () => {
  let t = 1_800_000_000_000;
  const now = () => t;
  const accounts = createMemoryAccounts(now);
  accounts.create({ key: "k", credits: 1 });
  const oauth = createOAuthAuthority(accounts, now);
  const client = oauth.register({ redirect_uris: ["http://127.0.0.1:1/cb"] });
  if (!client.ok) throw new Error("registration failed");
  const verifier = "v".repeat(43);
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const issueOne = () => {
    const a = oauth.authorize(
      {
        client_id: client.value.client_id,
        response_type: "code",
        code_challenge: challenge,
        code_challenge_method: "S256",
      },
      "http://mock",
    );
    const code = "params" in a ? a.params.code : undefined;
    const r = oauth.token({
      grant_type: "authorization_code",
      client_id: client.value.client_id,
      code,
      code_verifier: verifier,
    });
    if (!r.ok) throw new Error("token failed");
    return r.value.access_token;
  };
  for (let i = 0; i < 10_001; i++) issueOne();
  // a used code, an access token and a refresh token (the default scope asks offline_access) each
  expect(oauth.settings().stored).toBe(30_003);
  t += 2 * 3600 * 1000; // past the access tokens' and codes' lifetimes, not the refresh tokens' (30 days)
  issueOne();
  // the 10 002 refresh tokens are live and stay; the expired codes and access tokens are gone
  expect(oauth.settings().stored).toBe(10_002 + 1 + 1);
  t += 31 * 24 * 3600 * 1000; // past every lifetime
  const fresh = issueOne();
  // the refresh tokens are swept; below the bound nothing is (the previous flow's code and access token remain)
  expect(oauth.settings().stored).toBe(5);
  expect(oauth.authenticate(fresh)).toMatchObject({ credentialType: "oauth" });
});

it("denies when the consent is scripted to deny, with state and no code", () => {
  const accounts = createMemoryAccounts(() => 0);
  accounts.create({ key: "k", credits: 1 });
  const oauth = createOAuthAuthority(accounts, () => 0);
  const client = oauth.register({ redirect_uris: ["http://127.0.0.1:1/cb"] });
  if (!client.ok) throw new Error("registration failed");
  expect(oauth.configure({ consent: "deny" }).ok).toBe(true);
  const a = oauth.authorize(
    {
      client_id: client.value.client_id,
      response_type: "code",
      state: "s",
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
    },
    "http://mock",
  );
  expect(a).toMatchObject({ redirect: "http://127.0.0.1:1/cb", params: { error: "access_denied", state: "s" } });
  expect("params" in a && a.params.code).toBeFalsy();
  expect(oauth.configure({ consent: "maybe" as "deny" }).ok).toBe(false);
});
