// Hybrid mode: the named operations are answered by the embedded stateful mock and never reach the upstream
// (counted at the upstream), the rest are forwarded; with --fallback-on, an upstream failure is answered by the mock.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlumblineHar } from "../har/har-entry.ts";
import { startProxy } from "../start-proxy.ts";
import { startUpstreamDouble, type UpstreamDouble } from "./upstream-double.ts";

const KEY = "hybrid-key-3c2b1a09";
const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
let contract: Contract;
let real: RunningMock;
let dir: string;

beforeAll(async () => {
  contract = await loadContract();
  // the "real" service behind the counting upstream double: an account of its own
  real = await startMock({ port: 0, keys: [{ key: KEY, credits: 500 }], contract });
  dir = mkdtempSync(join(tmpdir(), "plumbline-proxy-hybrid-"));
});
afterAll(async () => {
  await real.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("--mock deepcrawl,screenshot", () => {
  let upstream: UpstreamDouble;
  beforeAll(async () => {
    upstream = await startUpstreamDouble(real.url);
  });
  afterAll(() => upstream.close());

  it("answers those from the mock (task polls and zip included) and forwards the rest", async () => {
    const record = join(dir, "hybrid.har");
    const proxy = await startProxy({
      upstream: upstream.url,
      port: 0,
      mock: ["deepcrawl", "screenshot"],
      record,
      reportDir: null,
      contract,
    });
    try {
      const shot = await fetch(`${proxy.url}/screenshot`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: "https://example.com/" }),
      });
      expect([shot.status, shot.headers.get("content-type")]).toEqual([200, "image/png"]);
      const accepted = await fetch(`${proxy.url}/deepcrawl`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: "https://example.com/" }),
      });
      expect(accepted.status).toBe(202);
      const { taskId } = (await accepted.json()) as { taskId: string };
      // the embedded mock runs on a real clock: its task moves on by itself (5 s by default)
      let status: { status: string; zipUrl?: string } = { status: "queued" };
      for (let i = 0; i < 60 && status.status !== "completed"; i++) {
        await sleep(250);
        status = (await (await fetch(`${proxy.url}/deepcrawl/status/${taskId}`, { headers })).json()) as typeof status;
      }
      expect(status.status).toBe("completed");
      // the mock's zip link was rewritten to point back through the proxy
      expect(new URL(status.zipUrl as string).origin).toBe(proxy.url);
      const zip = await fetch(status.zipUrl as string);
      expect([zip.status, zip.headers.get("content-type")]).toEqual([200, "application/zip"]);
      await zip.arrayBuffer();

      const search = await fetch(`${proxy.url}/search`, { method: "POST", headers, body: '{"query":"real"}' });
      expect(search.status).toBe(200);
      const usage = (await (await fetch(`${proxy.url}/usage`, { headers })).json()) as { usage: number };
      // the real ledger paid for the search only: the mock's calls spent the mock's credits
      expect(usage.usage).toBe(499);

      expect(upstream.count("POST", "/screenshot")).toBe(0);
      expect(upstream.count("POST", "/deepcrawl")).toBe(0);
      expect(upstream.count("GET", "/deepcrawl")).toBe(0);
      expect(upstream.count("POST", "/search")).toBe(1);
      expect(upstream.count("GET", "/usage")).toBe(1);
      const report = proxy.report();
      expect(report.totals.servedBy.upstream).toBe(2);
      expect(report.totals.servedBy.mock).toBeGreaterThanOrEqual(4);
      expect(report.operations.flatMap((o) => o.rules)).toEqual([]);
    } finally {
      await proxy.close();
    }
    const har = JSON.parse(readFileSync(record, "utf8")) as PlumblineHar;
    expect(har.log.entries.find((e) => e._plumbline.operationId === "screenshot")?._plumbline.servedBy).toBe("mock");
    expect(har.log.entries.find((e) => e._plumbline.operationId === "search")?._plumbline.servedBy).toBe("upstream");
  });

  it("--forward is the complement, and an unknown operation is refused naming the valid ones", async () => {
    const proxy = await startProxy({ upstream: upstream.url, port: 0, forward: ["search"], reportDir: null, contract });
    try {
      const before = upstream.count("POST", "/crawl");
      const crawl = await fetch(`${proxy.url}/crawl`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: "https://example.com/" }),
      });
      expect(crawl.status).toBe(200);
      expect(upstream.count("POST", "/crawl")).toBe(before);
    } finally {
      await proxy.close();
    }
    await expect(startProxy({ upstream: upstream.url, port: 0, mock: ["deepcrawls"], contract })).rejects.toThrow(
      /unknown operation\(s\) in --mock: deepcrawls \(valid: search, news, crawl.*deepcrawlStatus/,
    );
  });
});

describe("--fallback-on 502", () => {
  it("an upstream 502 is answered by the mock, and the exchange says so", async () => {
    const upstream = await startUpstreamDouble(real.url, { badGateway: ["/crawl"], reset: ["/sitemap"] });
    const proxy = await startProxy({ upstream: upstream.url, port: 0, fallbackOn: [502], reportDir: null, contract });
    try {
      const crawl = await fetch(`${proxy.url}/crawl`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: "https://example.com/" }),
      });
      expect(upstream.count("POST", "/crawl")).toBe(1);
      expect(crawl.status).toBe(200);
      expect(((await crawl.json()) as { crawlParameters: { url: string } }).crawlParameters.url).toBe(
        "https://example.com/",
      );
      // no answer at all falls back too
      const sitemap = await fetch(`${proxy.url}/sitemap`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: "https://example.com/" }),
      });
      expect(sitemap.status).toBe(200);
      // a status not listed for fallback is the upstream's answer
      const search = await fetch(`${proxy.url}/search`, { method: "POST", headers, body: '{"query":"up"}' });
      expect(search.status).toBe(200);
      const report = proxy.report();
      expect(report.totals).toMatchObject({ fallbacks: 2, servedBy: { upstream: 1, mock: 2, proxy: 0 } });
      expect(report.operations.flatMap((o) => o.rules)).toEqual([]);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
