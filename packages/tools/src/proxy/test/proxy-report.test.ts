// The proxy judges what passes through it: a client's journey against the mock leaves no violation of any answer
// (the one invalid request the client sends on purpose is reported as the client's), and against a faulty upstream
// the report names each fault with its rule, its operation and the redacted exchange.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_BY_ID, RULES } from "../judge/rules.ts";
import type { ProxyReport } from "../report/violation-report.ts";
import { type RunningProxy, startProxy } from "../start-proxy.ts";
import { runJourney } from "./client-journey.ts";
import { startUpstreamDouble, type UpstreamDouble } from "./upstream-double.ts";

const KEY = "journey-key-4f1c9a7e";
const BROKE = "broke-key-8d2b6e01";
const keys = [
  { key: KEY, credits: 1000 },
  { key: BROKE, credits: 0 },
];

const responseViolations = (r: ProxyReport) =>
  r.operations.flatMap((op) =>
    op.rules.filter((g) => g.side === "response").map((g) => ({ op: op.operationId, ...g })),
  );

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-proxy-report-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("against the mock", () => {
  let mock: RunningMock;
  let proxy: RunningProxy;
  beforeAll(async () => {
    const contract = await loadContract();
    mock = await startMock({ port: 0, keys, clock: "manual", contract });
    proxy = await startProxy({ upstream: mock.url, port: 0, reportDir: join(dir, "clean"), contract });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });

  it("a client journey leaves no violation of any answer; the deliberate 422 is the client's request-schema", async () => {
    const { steps } = await runJourney(proxy.url, { key: KEY, brokeKey: BROKE }, (ms) => {
      mock.admin.advanceClock(ms);
    });
    expect(steps.map((s) => `${s.name} ${s.status}`)).toEqual([
      "search 200",
      "search batch 200",
      "crawl 200",
      "screenshot 200",
      "sitemap 200",
      "deepcrawl 202",
      "deepcrawl poll 200",
      "deepcrawl poll 200",
      "deepcrawl zip 200",
      "deepcrawl poll again 200",
      "usage 200",
      "health 200",
      "402 402",
      "422 422",
      "401 401",
    ]);
    const report = proxy.report();
    expect(responseViolations(report)).toEqual([]);
    expect(report.totals.exchanges).toBe(steps.length);
    const search = report.operations.find((o) => o.operationId === "search");
    expect(search?.rules.map((g) => [g.rule, g.count])).toEqual([["request-schema", 1]]);
    expect(search?.rules[0].examples[0].message).toContain("/max_results must be <= 50");
    // the zip link pointed the client back through the proxy
    expect(report.operations.find((o) => o.operationId === "(no operation)")?.exchanges).toBe(1);
  });

  it("serves the report live: JSON by default, HTML for a browser", async () => {
    const json = await fetch(`${proxy.url}/__proxy/report`);
    expect(json.headers.get("content-type")).toContain("application/json");
    const body = (await json.json()) as ProxyReport;
    expect(body.tool).toBe("plumbline proxy");
    expect(body.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    const html = await fetch(`${proxy.url}/__proxy/report`, { headers: { accept: "text/html" } });
    expect(html.headers.get("content-type")).toContain("text/html");
    expect(await html.text()).toContain("request-schema");
  });
});

describe("against a faulty upstream", () => {
  let mock: RunningMock;
  let faulty: UpstreamDouble;
  let proxy: RunningProxy;
  let report: ProxyReport;
  beforeAll(async () => {
    const contract = await loadContract();
    mock = await startMock({ port: 0, keys, clock: "manual", contract });
    faulty = await startUpstreamDouble(mock.url, {
      wrongTypes: true,
      unlistedStatus: true,
      badSummary: true,
      leaveCompleted: true,
    });
    proxy = await startProxy({ upstream: faulty.url, port: 0, reportDir: join(dir, "faulty"), contract });
    await runJourney(proxy.url, { key: KEY, brokeKey: BROKE }, (ms) => {
      mock.admin.advanceClock(ms);
    });
    report = (await proxy.close()).report;
  });
  afterAll(async () => {
    await faulty.close();
    await mock.close();
  });

  it("names each fault with its rule and operation, and nothing else", () => {
    const found = responseViolations(report).map((g) => `${g.op} ${g.rule}`);
    expect(found.sort()).toEqual([
      // the completed answer turned processing keeps its `success: true`, which the TypeScript client reads as done
      "deepcrawlStatus client-deepcrawl-success-unfinished",
      "deepcrawlStatus deepcrawl-terminal-stays",
      "search batch-summary",
      "search response-schema",
      "sitemap response-status-listed",
    ]);
    const byRule = Object.fromEntries(responseViolations(report).map((g) => [g.rule, g]));
    expect(byRule["response-schema"].examples[0].message).toBe("/results/0/title must be string");
    expect(byRule["response-status-listed"].examples[0].actual).toBe("418");
    expect(byRule["batch-summary"].examples[0]).toMatchObject({ message: "summary.totalCost does not add up" });
    expect(byRule["deepcrawl-terminal-stays"].examples[0]).toMatchObject({
      expected: "completed",
      actual: "processing",
    });
  });

  it("keeps each violation's exchange redacted, with a curl line that names the key by variable", () => {
    for (const g of responseViolations(report)) {
      const v = g.examples[0];
      expect(v.exchange.requestHeaders).toContainEqual(["authorization", "[REDACTED]"]);
      expect(v.exchange.redacted).toContain("request header authorization");
      expect(v.curl).toContain('-H "authorization: Bearer $PLUMBLINE_API_KEY"');
      expect(v.curl).toContain(faulty.url);
      expect(v.exchange.response?.status).toBeGreaterThan(0);
    }
    const text = readFileSync(join(dir, "faulty", "proxy.json"), "utf8");
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text).totals.violations).toBe(report.totals.violations);
  });

  it("writes JUnit with one failing testcase per operation and rule, and an HTML page", () => {
    const junit = readFileSync(join(dir, "faulty", "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuite name="proxy\.sitemap"[^>]* failures="1"/);
    expect(junit).toMatch(
      /name="response-status-listed" time="[\d.]+">\s*<failure message="1 violation\(s\): status 418/,
    );
    expect(junit).not.toContain(KEY);
    const html = readFileSync(join(dir, "faulty", "report.html"), "utf8");
    expect(html).toContain("deepcrawl-terminal-stays");
    expect(html).not.toContain(KEY);
  });

  it("every rule it reports is in the published list", () => {
    for (const g of responseViolations(report)) expect(RULE_BY_ID.has(g.rule)).toBe(true);
  });
});
