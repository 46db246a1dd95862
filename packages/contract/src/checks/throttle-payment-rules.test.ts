// The 429 rules (rate-limit-rules.ts) and the 402 challenge's parameters (payment-rules.ts) on hand-made answers:
// what the conformance suite checked on its own before issue 35, now judged for every judge.
import { beforeAll, describe, expect, it } from "vitest";
import type { Contract } from "../contract.ts";
import { loadContract } from "../index.ts";
import { judgeExchange } from "./registry.ts";
import type { Exchange } from "./types.ts";

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

const THROTTLE = ["rate-limit-retry-after", "rate-limit-error-code", "rate-limit-headers"];
const limited = (headers: Record<string, string>, code = "PLB_RATE_LIMITED"): Exchange => ({
  request: { method: "GET", path: "/usage", headers: {} },
  response: {
    status: 429,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ ok: false, error: "Too Many Requests", message: "limited", code }),
  },
});
const clean = { "retry-after": "42", ratelimit: '"default";r=0;t=42', "ratelimit-policy": '"default";q=200;w=60' };
const messages = (ex: Exchange, rules: string[]) => judgeExchange(contract, ex, { rules }).map((v) => v.message);

describe("the 429 rules", () => {
  it("pass the platform's throttling answer", () => {
    expect(messages(limited(clean), THROTTLE)).toEqual([]);
  });

  it("name each missing part of a throttling answer", () => {
    expect(messages(limited({}, "PLB_OTHER"), THROTTLE)).toEqual([
      "429 without a Retry-After in seconds",
      "the 429 body is not the contract's error (code PLB_RATE_LIMITED)",
      "429 without a RateLimit header saying the window is used up",
      "429 without a RateLimit-Policy header",
    ]);
    expect(messages(limited({ ...clean, "retry-after": "Fri, 27 Nov 2026 10:00:00 GMT" }), THROTTLE)).toEqual([
      "429 without a Retry-After in seconds",
    ]);
    expect(messages(limited({ ...clean, ratelimit: '"default";r=3;t=42' }), THROTTLE)).toEqual([
      "429 without a RateLimit header saying the window is used up",
    ]);
  });

  it("fail a Retry-After longer than the advertised window, not one within it", () => {
    expect(messages(limited({ ...clean, "retry-after": "61" }), THROTTLE)).toEqual([
      "Retry-After 61 s is longer than the advertised window (w=60)",
    ]);
    expect(messages(limited({ ...clean, "retry-after": "60" }), THROTTLE)).toEqual([]);
  });

  it("judge only 429s", () => {
    const ok = limited({});
    if (ok.response) ok.response.status = 200;
    expect(messages(ok, THROTTLE)).toEqual([]);
  });
});

describe("the 402 challenge's parameters (payment-challenge)", () => {
  const request = (amount: string) =>
    Buffer.from(JSON.stringify({ amount, currency: "usd", recipient: "plumbline" })).toString("base64url");
  const at = Date.parse("2026-11-28T10:00:00Z");
  const challenged = (o: { amount?: string; expires?: string; realm?: string; bearer?: boolean; host?: string }) => {
    const payment = `Payment id="i", realm="${o.realm ?? "api.test"}", method="test", intent="charge", request="${request(o.amount ?? "0.003")}", expires="${o.expires ?? "2026-11-28T10:05:00Z"}"`;
    const header =
      o.bearer === false ? payment : `${payment}, Bearer resource_metadata="https://api.test/.well-known/x"`;
    const ex: Exchange = {
      request: {
        method: "POST",
        path: "/search",
        headers: { "content-type": "application/json" },
        json: { query: "q" },
      },
      response: {
        status: 402,
        headers: {
          "content-type": "application/problem+json",
          "www-authenticate": header,
          "cache-control": "no-store",
        },
        body: "{}",
      },
      at,
      ...(o.host ? { host: o.host } : {}),
    };
    return messages(ex, ["payment-challenge"]);
  };

  it("passes a payable challenge at the request's price", () => {
    expect(challenged({ host: "api.test" })).toEqual([]);
  });

  it("fails another price, an expiry past or over an hour away, another realm, no Bearer challenge", () => {
    expect(challenged({ amount: "0.006" })).toEqual(["request amount 0.006 is not the price 0.003"]);
    expect(challenged({ expires: "2026-11-28T09:00:00Z" })).toEqual([
      "challenge expired on issue (2026-11-28T09:00:00Z)",
    ]);
    expect(challenged({ expires: "2026-11-28T12:00:00Z" })).toEqual([
      "challenge expires 2026-11-28T12:00:00Z, more than an hour after issue",
    ]);
    expect(challenged({ host: "other.test" })).toEqual(["realm api.test is not the host other.test"]);
    expect(challenged({ bearer: false })).toEqual(["no Bearer resource_metadata challenge beside it"]);
  });
});
