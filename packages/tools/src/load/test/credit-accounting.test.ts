// The accounting check: the balance after a run equals the balance before minus what the successful calls
// cost, priced from the spec. Checked against fake targets that charge right, too much and too little.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { loadContract } from "@plumbline-kit/contract";
import { afterEach, describe, expect, it } from "vitest";
import { creditsCharged } from "../charge-counter.ts";
import { checkAccounting } from "../credit-accounting.ts";
import { buildTemplate, type RequestTemplate } from "../request-plan.ts";
import { runLoad } from "../run-load.ts";
import type { RequestEntry } from "../scenario-file.ts";

const SCENARIO = fileURLToPath(new URL("./fixtures/single-search.json", import.meta.url));

/** A target that knows /usage, /health and single-body /search, and charges `price` per search. */
function fakeTarget(price: number, options: { refuseKey?: boolean } = {}): Promise<Server> {
  let balance = 1_000_000;
  const server = createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on("end", () => {
      if (req.url === "/health") return json(200, { status: "ok" });
      if (options.refuseKey || req.headers.authorization !== "Bearer k") return json(401, { ok: false });
      if (req.url === "/usage") return json(200, { usage: balance, credential_type: "api_key" });
      balance -= price;
      json(200, { searchParameters: { query: "q" }, results: [] });
    });
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r(server)));
}

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function loadAgainst(price: number, options: { refuseKey?: boolean } = {}) {
  server = await fakeTarget(price, options);
  return runLoad({
    target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: "k",
    scenario: SCENARIO,
    durationSeconds: 1,
    warmupSeconds: 0.3,
    connections: 2,
    thresholds: null,
    creditAccounting: true,
    reportDir: null,
  });
}

describe("credit accounting against a target", () => {
  it("holds when the target charges the spec's price", async () => {
    const r = await loadAgainst(1);
    expect(r.ok && r.report.credits).toMatchObject({ checked: true, pass: true });
    if (r.ok) {
      expect(r.report.credits.spent).toBe(r.report.credits.counted);
      expect(r.report.credits.counted).toBeGreaterThan(r.report.overall.requests); // the warm-up was charged too
      expect(r.exitCode).toBe(0);
    }
  });

  it.each([
    [2, /over-charged/],
    [0, /under-charged/],
  ])("breaks, named, when the target charges %i per search", async (price, message) => {
    const r = await loadAgainst(price);
    expect(r.exitCode).toBe(1);
    if (r.ok) {
      expect(r.report.credits.pass).toBe(false);
      expect(r.report.breaches).toEqual([
        expect.stringMatching(/^credit accounting: balance .*spent .* but the successful calls cost/),
      ]);
      expect(r.report.breaches[0]).toMatch(message);
    }
  });

  it("a refused key means the run cannot proceed", async () => {
    const r = await loadAgainst(1, { refuseKey: true });
    expect(r).toMatchObject({ ok: false, exitCode: 2, error: expect.stringMatching(/refused the API key/) });
  });
});

describe("what one answer costs", async () => {
  const contract = await loadContract();
  const template = (entry: RequestEntry): RequestTemplate => {
    const b = buildTemplate(entry, 0, contract, { apiKey: "k" });
    if (!b.ok) throw new Error(b.error);
    return b.template;
  };
  const body = (v: unknown) => JSON.stringify(v);

  it("prices single calls from the spec, crawl_results included; refusals cost nothing", () => {
    const search = template({ operation: "search", body: { query: "a", crawl_results: 2 } });
    expect(creditsCharged(search, 200, "", contract)).toBe(3);
    for (const status of [400, 401, 402, 422, 429, 500, 502])
      expect(creditsCharged(search, status, "", contract)).toBe(0);
    expect(creditsCharged(template({ operation: "extract", example: "schema" }), 200, "", contract)).toBe(10);
    expect(creditsCharged(template({ operation: "deepcrawl", example: "default" }), 202, "", contract)).toBe(20);
    expect(creditsCharged(template({ operation: "usage" }), 200, "", contract)).toBe(0);
    expect(creditsCharged(template({ operation: "search", example: "single", auth: "none" }), 200, "", contract)).toBe(
      0,
    );
  });

  it("charges a crawl answered 404 or 410 (D-charging)", () => {
    const crawl = template({ operation: "crawl", example: "single" });
    expect([404, 410, 502].map((s) => creditsCharged(crawl, s, "", contract))).toEqual([1, 1, 0]);
  });

  it("charges batches per successful entry", () => {
    const search = template({ operation: "search", example: "batch" }); // entry 0 costs 1, entry 1 (crawl_results 1) 2
    const answer = (ok: boolean[]) => body({ results: ok.map((success) => ({ success, cost: 0 })), summary: {} });
    expect(creditsCharged(search, 200, answer([true, true]), contract)).toBe(3);
    expect(creditsCharged(search, 200, answer([false, true]), contract)).toBe(2);
    expect(creditsCharged(search, 200, answer([true, false]), contract)).toBe(1);
    expect(creditsCharged(search, 200, "not json", contract)).toBe(0);
    const crawl = template({ operation: "crawl", example: "batch" });
    const crawled = (urls: string[]) => body(urls.map((url) => ({ crawlParameters: { url }, results: {} })));
    expect(creditsCharged(crawl, 200, crawled(["https://example.org/docs/intro"]), contract)).toBe(1);
    expect(
      creditsCharged(
        crawl,
        200,
        crawled(["https://example.org/docs/intro", "https://example.com/blog/launch"]),
        contract,
      ),
    ).toBe(2);
  });

  it("allows exactly the price of the unanswered requests, no more", () => {
    const start = { ok: true as const, balance: 100 };
    const base = { start, counted: 10, unresolved: 2, unresolvedCredits: 4 };
    expect(checkAccounting({ ...base, end: { ok: true, balance: 90 } }).pass).toBe(true);
    expect(checkAccounting({ ...base, end: { ok: true, balance: 86 } }).pass).toBe(true);
    expect(checkAccounting({ ...base, end: { ok: true, balance: 85 } })).toMatchObject({
      pass: false,
      detail: /over-charged by 1/,
    });
    expect(checkAccounting({ ...base, end: { ok: true, balance: 91 } })).toMatchObject({
      pass: false,
      detail: /under-charged by 1/,
    });
    expect(
      checkAccounting({ ...base, start: { ok: false, status: 404, error: "GET /usage answered 404" }, end: null }),
    ).toMatchObject({
      checked: false,
      pass: true,
    });
  });
});
