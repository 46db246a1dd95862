// Load within the target's limits (issue 27): the run reads the limits the target advertises (or --rate-limit),
// paces itself under them, holds back what a window has no room for, counts a 429 that respects the policy as
// throttling (not an error) and waits out Retry-After on its own /usage reads; --ignore-rate-limits keeps the old
// behaviour. Judged by counts of requests and windows, never by the machine's speed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { readBalance } from "../credit-accounting.ts";
import { createSender } from "../http-send.ts";
import { createLimiter, parseLoadRateLimit, samplesFor } from "../rate-limits.ts";
import { renderSummary } from "../render-summary.ts";
import { buildTemplate, type RequestTemplate } from "../request-plan.ts";
import { runLoad } from "../run-load.ts";

async function template(operation: string, auth = true): Promise<RequestTemplate> {
  const contract = await loadContract();
  const built = buildTemplate(
    { operation, ...(auth ? {} : { auth: "none" as const }), ...(operation === "search" ? { example: "single" } : {}) },
    0,
    contract,
    { apiKey: "K" },
  );
  if (!built.ok) throw new Error(built.error);
  return built.template;
}

describe("the limiter", () => {
  it("reads --rate-limit as requests per 60 s, the account's and operations' own", () => {
    expect(parseLoadRateLimit("auto")).toBe("auto");
    expect(parseLoadRateLimit("200,screenshot=10")).toEqual({ perAccount: 200, perOperation: { screenshot: 10 } });
    expect(() => parseLoadRateLimit("fast")).toThrow(/--rate-limit takes auto or N/);
    expect(samplesFor(99)).toBe(500);
    expect(samplesFor(95)).toBe(100);
    expect(samplesFor(50)).toBe(10);
  });

  it("admits what a stated window has room for, then holds back until it resets", async () => {
    let now = 0;
    const limiter = createLimiter({ perAccount: 3, perOperation: {} }, () => now);
    const search = await template("search");
    const health = await template("health", false);
    expect([1, 2, 3, 4].map(() => limiter.admit(search))).toEqual([true, true, true, false]);
    // unauthenticated calls draw on no account window
    expect(limiter.admit(health)).toBe(true);
    now = 60_001;
    expect(limiter.admit(search)).toBe(true);
    expect(limiter.accountRate()).toBe(0.05);
  });

  it("learns the advertised policies and an operation's own window from the answers' headers", async () => {
    let now = 0;
    const limiter = createLimiter("auto", () => now);
    const search = await template("search");
    const shot = await template("screenshot");
    limiter.learn("/usage", 200, { "ratelimit-policy": '"default";q=200;w=60', ratelimit: '"default";r=150;t=30' });
    expect(limiter.accountRate()).toBeCloseTo(200 / 60);
    expect(limiter.admit(shot)).toBe(true);
    limiter.answered(shot, 200, { "ratelimit-policy": '"screenshot";q=2;w=60', ratelimit: '"screenshot";r=0;t=40' });
    // the screenshot window is spent: screenshots wait for it, searches do not
    expect(limiter.admit(shot)).toBe(false);
    expect(limiter.admit(search)).toBe(true);
    now = 40_001;
    expect(limiter.admit(shot)).toBe(true);
  });

  it("counts a 429 with Retry-After and RateLimit headers as throttling and pauses for Retry-After; not a bare 429", async () => {
    let now = 0;
    const limiter = createLimiter("auto", () => now);
    const search = await template("search");
    expect(limiter.admit(search)).toBe(true);
    const h = { "retry-after": "2", ratelimit: '"default";r=0;t=2', "ratelimit-policy": '"default";q=5;w=2' };
    expect(limiter.answered(search, 429, h)).toEqual({ throttled: true });
    expect(limiter.admit(search)).toBe(false);
    now = 2_001;
    expect(limiter.admit(search)).toBe(true);
    expect(limiter.answered(search, 429, {})).toEqual({ throttled: false });
  });
});

// A target that throttles: /usage?period=day answers every fourth call 429 (within a policy it advertises, with
// Retry-After: 1), or, with `bare`, a 429 carrying neither header; /usage alone is the balance.
function throttlingTarget(bare: boolean) {
  let calls = 0;
  let throttled = 0;
  const server = createServer((req, res) => {
    const limits = { "ratelimit-policy": '"default";q=6000;w=60', ratelimit: '"default";r=5000;t=30' };
    if (req.url === "/usage") {
      res.writeHead(200, { "content-type": "application/json", ...limits });
      return res.end('{"usage":1000,"credential_type":"api_key"}');
    }
    if (req.url === "/health") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"status":"ok"}');
    }
    calls++;
    if (calls % 4 === 0) {
      throttled++;
      res.writeHead(429, {
        "content-type": "application/json",
        ...(bare
          ? {}
          : { "retry-after": "1", ratelimit: '"default";r=0;t=1', "ratelimit-policy": limits["ratelimit-policy"] }),
      });
      return res.end('{"ok":false,"error":"Too Many Requests","message":"slow down"}');
    }
    res.writeHead(200, { "content-type": "application/json", ...limits });
    res.end('{"usage":1000,"credential_type":"api_key"}');
  });
  return {
    server,
    counts: () => ({ calls, throttled }),
    listen: () =>
      new Promise<string>((r) =>
        server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("a run against a target that throttles", () => {
  it("reports throttling, not errors, and holds back what Retry-After pauses", async () => {
    const t = throttlingTarget(false);
    const url = await t.listen();
    try {
      const r = await runLoad({
        target: url,
        apiKey: "K",
        scenario: "usage",
        durationSeconds: 3,
        warmupSeconds: 0,
        thresholds: null,
        reportDir: null,
      });
      if (!r.ok) throw new Error(r.error);
      const rep = r.report;
      expect(rep.mode).toBe("open");
      expect(rep.rateLimits).toMatchObject({ source: "advertised", allowedRate: 100, pacedRate: 90 });
      expect(rep.overall.throttled).toBeGreaterThan(0);
      expect(rep.overall.throttled).toBe(rep.overall.statuses["429"]);
      expect(rep.overall.errors).toBe(0);
      // each 429 paused the account's window for Retry-After (1 s): the arrivals meanwhile were held back
      expect(rep.rateLimits?.heldBack).toBeGreaterThan(0);
      expect(rep.overall.heldBack).toBe(rep.rateLimits?.heldBack);
      expect(r.exitCode).toBe(0);
      expect(renderSummary(rep, null)).toMatch(
        /rate limits: the advertised limits \(6000 per 60 s \(default\)\) allow 100 requests\/s/,
      );
    } finally {
      await t.close();
    }
  }, 30_000);

  it("counts a 429 without Retry-After and RateLimit headers as an error, and so does --ignore-rate-limits", async () => {
    const t = throttlingTarget(true);
    const url = await t.listen();
    try {
      const r = await runLoad({
        target: url,
        apiKey: "K",
        scenario: "usage",
        durationSeconds: 2,
        warmupSeconds: 0,
        thresholds: null,
        reportDir: null,
      });
      if (!r.ok) throw new Error(r.error);
      expect(r.report.overall.throttled).toBe(0);
      expect(r.report.overall.errors).toBe(r.report.overall.statuses["429"]);
      expect(r.report.overall.errors).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
    const polite = throttlingTarget(false);
    const url2 = await polite.listen();
    try {
      const r = await runLoad({
        target: url2,
        apiKey: "K",
        scenario: "usage",
        durationSeconds: 2,
        warmupSeconds: 0,
        connections: 2,
        thresholds: null,
        reportDir: null,
        ignoreRateLimits: true,
      });
      if (!r.ok) throw new Error(r.error);
      expect(r.report.mode).toBe("closed");
      expect(r.report.rateLimits?.source).toBe("ignored");
      expect(r.report.overall.throttled).toBe(0);
      expect(r.report.overall.errors).toBe(r.report.overall.statuses["429"]);
    } finally {
      await polite.close();
    }
  }, 30_000);
});

describe("the run's own /usage reads", () => {
  let server: Server;
  let url: string;
  let calls = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { "retry-after": "1", ratelimit: '"default";r=0;t=1' });
        return res.end("{}");
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"usage":7}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("wait out a 429 as Retry-After says, then read the balance", async () => {
    const sender = createSender(new URL(url), 1);
    const waits: string[] = [];
    const started = Date.now();
    const read = await readBalance(sender, "K", { onWait: (l) => waits.push(l) });
    await sender.close();
    expect(read).toMatchObject({ ok: true, balance: 7 });
    expect(waits).toEqual(["GET /usage rate-limited: waiting 1 s (Retry-After)"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});

describe("against the mock with its default limits (D-rate-limits: 200 a minute)", () => {
  let mock: MockProcess;
  beforeAll(async () => {
    mock = await startMockProcess(["--key", "LIM:100000000"]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("paces the mixed load under the advertised limits: no 429, credits accounted, rps budgets not judged", async () => {
    const r = await runLoad({
      target: mock.url,
      apiKey: "LIM",
      scenario: "mixed",
      durationSeconds: 4,
      warmupSeconds: 1,
      reportDir: null,
    });
    if (!r.ok) throw new Error(r.error);
    const rep = r.report;
    expect(rep.rateLimits).toMatchObject({ source: "advertised", allowedRate: 3.33, pacedRate: 3 });
    expect(rep.rateLimits?.policies).toContainEqual({ policy: "default", quota: 200, windowSeconds: 60 });
    expect(rep.overall.statuses["429"] ?? 0).toBe(0);
    // at most every arrival of the warm-up and the measured seconds at 3/s (a warm-up answer may land after it)
    expect(rep.overall.requests).toBeLessThanOrEqual(3 * (1 + 4) + 1);
    expect(rep.credits).toMatchObject({ checked: true, pass: true });
    const rps = rep.thresholds.find((t) => t.key === "overall" && t.expression.startsWith("rps"));
    expect(rps).toMatchObject({ status: "skipped", note: expect.stringMatching(/^cannot be judged at the rate/) });
    expect(rep.rateLimits?.unjudged).toContain(`overall: ${rps?.expression} (${rps?.note})`);
  }, 60_000);
});
