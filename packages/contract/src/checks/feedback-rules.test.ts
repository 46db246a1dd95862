// feedback-no-echo (D-feedback) on answers of the live contract's POST /feedback: the stored report's 201 and a
// refusal pass; an answer carrying the report's message, its intent or the credential is named, whatever its status.
import { beforeAll, describe, expect, it } from "vitest";
import type { Contract } from "../contract.ts";
import { loadContract } from "../index.ts";
import { judgeExchange } from "./registry.ts";
import type { Exchange } from "./types.ts";

let live: Contract;
beforeAll(async () => {
  live = await loadContract({ version: "live" });
});

const KEY = "plb_live_key_1234567890";
const report = {
  message: "Sitemap returned no links for a site whose robots.txt names two sitemaps.",
  intent: "list every page of docs.example.com before crawling it",
  category: "bug",
};
function exchange(status: number, answer: unknown, headers: Record<string, string> = {}): Exchange {
  return {
    request: {
      method: "POST",
      path: "/feedback",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify(report),
    },
    response: { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(answer) },
  };
}
const judged = (ex: Exchange) => judgeExchange(live, ex, { rules: ["feedback-no-echo"] }).map((v) => v.message);

describe("feedback-no-echo", () => {
  it("passes a 201 holding only the report's id and a refusal that names no field's value", () => {
    expect(judged(exchange(201, { id: "fb_abcdefghijklmnopqrst", status: "new" }))).toEqual([]);
    const refusal = { ok: false, error: "Too Many Requests", message: "Rate limit of 10 requests per 60 s reached" };
    expect(judged(exchange(429, refusal))).toEqual([]);
  });

  it("names an answer echoing the message or the intent, in the body or a header, any status", () => {
    expect(judged(exchange(201, { id: "fb_abcdefghijklmnopqrst", status: "new", report }))).toEqual([
      "the answer echoes the report's message",
      "the answer echoes the report's intent",
    ]);
    const echoed = { ok: false, error: "Service Unavailable", message: `Could not store: ${report.message}` };
    expect(judged(exchange(503, echoed))).toEqual(["the answer echoes the report's message"]);
  });

  it("names an answer carrying the credential, in the body or a header", () => {
    expect(judged(exchange(201, { id: "fb_abcdefghijklmnopqrst", status: "new" }, { "x-account": KEY }))).toEqual([
      "the answer holds the credential the report was sent with",
    ]);
    expect(judged(exchange(401, { ok: false, error: "Unauthorized", message: `Unknown key ${KEY}` }))).toEqual([
      "the answer holds the credential the report was sent with",
    ]);
  });

  it("looks for no short message (it may appear in any answer by chance)", () => {
    const ex = exchange(201, { id: "fb_abcdefghijklmnopqrst", status: "new" });
    ex.request.body = JSON.stringify({ message: "new" });
    expect(judged(ex)).toEqual([]);
  });
});
