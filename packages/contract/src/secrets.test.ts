// The one rule of what is a secret when a request is written down (logs, recordings, reports; issue 38).
import { describe, expect, it } from "vitest";
import { isSecretField, REDACTED, redactParameters, redactUrl } from "./secrets.ts";

describe("redactUrl", () => {
  it("redacts keys and OAuth grant parameters in the query and the fragment, and keeps the rest byte for byte", () => {
    expect(redactUrl("/usage?api_key=k1&x=a%20b&TOKEN=t")).toBe(`/usage?api_key=${REDACTED}&x=a%20b&TOKEN=${REDACTED}`);
    expect(redactUrl("http://127.0.0.1/cb?code=abc&state=st&iss=http%3A%2F%2Fh")).toBe(
      `http://127.0.0.1/cb?code=${REDACTED}&state=st&iss=http%3A%2F%2Fh`,
    );
    expect(redactUrl("/oauth/authorize?code_challenge=c&code_challenge_method=S256&client_id=x")).toBe(
      `/oauth/authorize?code_challenge=${REDACTED}&code_challenge_method=S256&client_id=x`,
    );
    expect(redactUrl("https://app/cb#access_token=t&token_type=bearer")).toBe(
      `https://app/cb#access_token=${REDACTED}&token_type=bearer`,
    );
    expect(redactUrl("/search")).toBe("/search");
    expect(redactUrl("/search?q=key")).toBe("/search?q=key");
  });

  it("tells each secret's decoded value, to scrub it elsewhere", () => {
    const found: [string, string][] = [];
    redactUrl("/x?api%5Fkey=a%2Bb&refresh_token=r+s", (n, v) => found.push([n, v]));
    expect(found).toEqual([
      ["api_key", "a+b"],
      ["refresh_token", "r s"],
    ]);
  });
});

describe("form bodies and JSON fields", () => {
  it("a token request's form: code, verifier, client secret, refresh token, password", () => {
    expect(
      redactParameters("grant_type=authorization_code&code=c&code_verifier=v&client_secret=s&client_id=id&password=p"),
    ).toBe(
      `grant_type=authorization_code&code=${REDACTED}&code_verifier=${REDACTED}&client_secret=${REDACTED}&client_id=id&password=${REDACTED}`,
    );
  });

  it("`code` is a secret in a JSON token request only: elsewhere it is the contract's error code", () => {
    expect(isSecretField("code", { grant_type: "authorization_code", code: "c" })).toBe(true);
    expect(isSecretField("code", { ok: false, code: "PLB_BAD_VALUE" })).toBe(false);
    expect(isSecretField("code_verifier", {})).toBe(true);
    expect(isSecretField("refresh_token", {})).toBe(true);
    expect(isSecretField("query", {})).toBe(false);
  });
});
