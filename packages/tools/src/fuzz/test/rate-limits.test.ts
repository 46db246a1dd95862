// The fuzzer keeps to a target's rate limits (issue 17, "Fuzzing honours 429 everywhere"): its own reads wait out a
// 429 as Retry-After says, a fixed --rate paces every request, the advertised RateLimit pace is kept per policy,
// and a run against a mock enforcing tight limits finds nothing to blame on the target.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseRateLimit, parseRateLimitPolicy } from "@plumbline-kit/contract/rate-limit-headers";
import { startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, retryAfterSeconds } from "../http/http-client.ts";
import { runFuzz } from "../run-fuzz.ts";

describe("bookkeeping reads", () => {
  let server: Server;
  let url: string;
  let usageCalls = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/usage") {
        usageCalls++;
        // throttled twice, then the balance
        if (usageCalls <= 2) {
          res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
          res.end('{"ok":false,"error":"Too Many Requests","message":"slow down"}');
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"usage":42,"credential_type":"api_key"}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("wait out a 429 on /usage as Retry-After says, then read the balance", async () => {
    usageCalls = 0;
    const waits: string[] = [];
    const client = createHttpClient({ baseUrl: url, apiKey: "k", timeoutMs: 5000, onWait: (l) => waits.push(l) });
    const started = Date.now();
    const r = await client.read({ method: "GET", path: "/usage" });
    client.close();
    expect(r.ok && r.status).toBe(200);
    expect(r.ok && r.json).toMatchObject({ usage: 42 });
    expect(usageCalls).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toContain("waiting 1 s (Retry-After)");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it("never wait past the run's deadline: the 429 comes back, for the caller to count as throttled", async () => {
    usageCalls = 0;
    const client = createHttpClient({ baseUrl: url, apiKey: "k", timeoutMs: 5000, deadline: () => Date.now() + 100 });
    const r = await client.read({ method: "GET", path: "/usage" });
    client.close();
    expect(r.ok && r.status).toBe(429);
    expect(usageCalls).toBe(1);
  });

  it("a fixed --rate spaces every request", async () => {
    const client = createHttpClient({ baseUrl: url, apiKey: "k", timeoutMs: 5000, rate: 10 });
    const started = Date.now();
    for (let i = 0; i < 6; i++) await client.send({ method: "GET", path: "/health" });
    client.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it("read Retry-After in seconds or as a date, and the RateLimit header's policy, remaining and reset", () => {
    expect(retryAfterSeconds("7")).toBe(7);
    expect(retryAfterSeconds(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThanOrEqual(29);
    expect(retryAfterSeconds("soon")).toBe(5);
    expect(retryAfterSeconds("9999")).toBe(65);
    expect(parseRateLimit('"screenshot";r=0;t=42')).toEqual({ policy: "screenshot", remaining: 0, resetSeconds: 42 });
    expect(parseRateLimit(undefined)).toBeNull();
    expect(parseRateLimitPolicy('"default";q=200;w=60')).toEqual({ policy: "default", quota: 200, windowSeconds: 60 });
    expect(parseRateLimitPolicy('"default";q=0;w=60')).toBeNull();
  });
});

describe("a run against a mock enforcing tight limits", () => {
  it("exits 0: the pace is kept, what is throttled is counted, nothing is blamed on the target", async () => {
    const mock = await startMock({
      port: 0,
      keys: [{ key: "tight", credits: 100_000 }],
      rateLimits: { perAccount: 20, windowSeconds: 2, perOperation: { screenshot: 3 } },
    });
    try {
      const r = await runFuzz({
        target: mock.url,
        apiKey: "tight",
        seed: 7,
        timeSeconds: 4,
        shrinkSeconds: 2,
        workers: 2,
        reportDir: null,
        corpusDir: null,
      });
      expect(
        r.report.properties.map((p) => [p.property, p.failure ? JSON.stringify(p.failure.failures) : null]),
      ).toEqual(r.report.properties.map((p) => [p.property, null]));
      expect(r.exitCode).toBe(0);
      expect(r.report.totals.cases).toBeGreaterThan(0);
      // the mock saw the fuzzer's requests within its windows: nothing the fuzzer sent on its own bookkeeping 429'd
      const throttledUsage = mock.admin.journal.list().filter((e) => e.operationId === "usage" && e.status === 429);
      expect(throttledUsage.length).toBeLessThanOrEqual(2);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
