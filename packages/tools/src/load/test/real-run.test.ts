// Short real runs against the mock started through its CLI: the mixed workload (verdict, progress, reports,
// every operation measured, credit accounting exact), an open loop at a fixed rate, and
// submit-then-poll deepcrawl flows. Budgets are the lenient test file: this checks the tool, not the mock's speed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { progressLine, renderSummary } from "../render-summary.ts";
import { runLoad } from "../run-load.ts";
import type { ProgressSample } from "../sample-recorder.ts";
import { readScenario } from "../scenario-file.ts";
import type { LoadReport } from "../types.ts";

const LENIENT = fileURLToPath(new URL("./fixtures/lenient.json", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "plb-load-run-"));
let mock: MockProcess;

beforeAll(async () => {
  mock = await startMockProcess(["--key", "LK:1000000000", "--rate-limit", "0", "--deepcrawl-steps", "0,0,150"]);
});
afterAll(async () => {
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("plumbline load against the mock", () => {
  it("runs the mixed workload, closed loop, and judges it", async () => {
    const reportDir = join(dir, "mixed");
    const progress: ProgressSample[] = [];
    const r = await runLoad({
      target: mock.url,
      apiKey: "LK",
      scenario: "mixed",
      durationSeconds: 2,
      warmupSeconds: 1,
      connections: 4,
      thresholds: LENIENT,
      reportDir,
      onProgress: (p) => progress.push(p),
    });
    expect(r.ok ? r.report.breaches : r.error).toEqual([]);
    if (!r.ok) return;
    expect(r.exitCode).toBe(0);
    expect(renderSummary(r.report, r.files)).toMatch(
      new RegExp(
        `^PASS {2}mixed against http://127\\.0\\.0\\.1:\\d+/ \\(closed loop, 4 connections, 2 s\\)[\\s\\S]*report: ${join(reportDir, "report.html")}`,
      ),
    );
    // progress while it runs: the warm-up, then the measured seconds
    expect(progress[0].warmingUp).toBe(true);
    expect(progress.filter((p) => !p.warmingUp && p.lastSecondRps > 0).length).toBeGreaterThanOrEqual(1);
    expect(progressLine(progress[progress.length - 1], 2)).toMatch(
      /^\[ +\d\/2 s\] +\d+ answers\/s {2}p99 ([\d.]+ ms|–) {2}total \d+ {2}errors 0$/,
    );
    expect(existsSync(join(reportDir, "report.html"))).toBe(true);

    const report = JSON.parse(readFileSync(join(reportDir, "load.json"), "utf8")) as LoadReport;
    const scenario = readScenario("mixed");
    const ops = new Set(scenario.ok ? scenario.scenario.requests.map((e) => e.operation) : []);
    // a 2 s run at a few hundred requests may miss the 1% operations; the frequent ones must all be there
    for (const id of ["search", "news", "crawl", "sitemap", "usage"])
      expect(report.operations[id]?.requests).toBeGreaterThan(0);
    for (const id of Object.keys(report.operations)) expect(ops.has(id)).toBe(true);
    // the invalid and unpaid share is answered as the contract says, and is not an error
    expect(Object.keys(report.overall.statuses)).toEqual(expect.arrayContaining(["200", "402", "422"]));
    expect(report.overall.invalidSent).toBeGreaterThan(0);
    expect(report.overall.errors).toBe(0);
    expect(report.credits).toMatchObject({ checked: true, pass: true, unresolved: 0 });
    expect(report.credits.spent).toBe(report.credits.counted);
    expect(report.timeline.length).toBeGreaterThanOrEqual(2);

    // a baseline of another scenario is refused before any traffic
    const other = await runLoad({
      target: mock.url,
      apiKey: "LK",
      scenario: "search",
      baseline: join(reportDir, "load.json"),
      reportDir: null,
    });
    expect(other).toMatchObject({
      exitCode: 2,
      error: expect.stringMatching(/the baseline ran scenario "mixed", this run "search"/),
    });
  }, 90_000);

  it("runs an open loop at a fixed arrival rate, latency measured from each scheduled arrival", async () => {
    const r = await runLoad({
      target: mock.url,
      apiKey: "LK",
      scenario: "search",
      rate: 200,
      durationSeconds: 2,
      warmupSeconds: 0.5,
      connections: 20,
      thresholds: LENIENT,
      reportDir: null,
    });
    expect(r.ok ? r.report.breaches : r.error).toEqual([]);
    if (!r.ok) return;
    expect(r.report).toMatchObject({ mode: "open", rate: 200 });
    expect(r.report.overall.requests).toBeGreaterThan(360);
    expect(r.report.overall.requests).toBeLessThan(440);
    expect(r.report.serviceLatency?.med).toBeLessThanOrEqual(r.report.overall.latency?.med as number);
    expect(r.report.credits).toMatchObject({ checked: true, pass: true });
  });

  it("measures deepcrawl flows from submit to completed", async () => {
    const r = await runLoad({
      target: mock.url,
      apiKey: "LK",
      scenario: "deepcrawl-flow",
      durationSeconds: 2,
      connections: 3,
      thresholds: LENIENT,
      reportDir: null,
    });
    expect(r.ok ? r.report.breaches : r.error).toEqual([]);
    if (!r.ok) return;
    const flow = r.report.flows.deepcrawl;
    expect(flow.completed).toBeGreaterThanOrEqual(3);
    expect(flow.completed).toBe(flow.started);
    // the mock's steps take 150 ms: a flow cannot complete sooner, however fast each request is
    expect(flow.timeToCompleted?.min).toBeGreaterThanOrEqual(150);
    expect(r.report.operations.deepcrawlStatus.requests).toBeGreaterThanOrEqual(flow.completed);
    expect(r.report.credits).toMatchObject({ pass: true, counted: 20 * flow.started });
  });
});
