// Issue 31: the deepcrawl flow and the target's rate limits in exported Artillery scripts, run by Artillery (a child
// process, a few seconds of load on 127.0.0.1) against the mock: each flow polled at its think time to its zip; a
// rate-limited target's 429s counted as throttling and arrivals held back, never errors; the credits exact after both.
// (export-artillery-mock.test.ts compares Artillery's verdict with plumbline load's.)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runArtillery } from "../../../../../test-support/artillery-process.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runLoadAccount } from "../export/load-account.ts";
import { type LoadExportOptions, runLoadExport } from "../export/run-export.ts";

const PASS = fileURLToPath(new URL("./fixtures/export-pass.json", import.meta.url));
const KEY = "ART";
const dir = mkdtempSync(join(tmpdir(), "plb-export-flows-"));
let mock: MockProcess;
let limited: MockProcess;

// the same traffic shape for both tools: an open loop at 20 arrivals/s, 1 s of warm-up ramp, 2 s measured
const SHAPE = { rate: 20, durationSeconds: 2, warmupSeconds: 1 };

beforeAll(async () => {
  [mock, limited] = await Promise.all([
    startMockProcess(["--key", `${KEY}:1000000000`, "--rate-limit", "0", "--deepcrawl-steps", "0,0,150"]),
    // a manual clock: the run falls in one rate-limit window, and the test moves past it before the account reads
    startMockProcess(["--key", `${KEY}:1000000000`, "--rate-limit", "30", "--clock", "manual"]),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), limited?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

async function exported(name: string, o: Omit<LoadExportOptions, "format" | "outDir">) {
  const out = join(dir, name);
  const r = await runLoadExport({ ...SHAPE, ...o, format: "artillery", outDir: out });
  if (!r.ok) throw new Error(r.error);
  const script = r.files.find((f) => f.endsWith(".artillery.yml")) as string;
  return { ...r, script, report: join(out, "report.json"), state: join(out, "account.json") };
}

const counters = (report: string) =>
  (JSON.parse(readFileSync(report, "utf8")) as { aggregate: { counters: Record<string, number> } }).aggregate.counters;

describe("other exported scenarios against the mock", () => {
  it("drives each deepcrawl flow from submit through its polls to its zip, and the credits are exact", async () => {
    const e = await exported("flow", { scenario: "deepcrawl-flow", target: mock.url, thresholds: PASS, rate: 3 });
    await runLoadAccount({ target: mock.url, apiKey: KEY, before: true, state: e.state });
    const art = await runArtillery(e.script, e.report, KEY);
    expect(art.code, art.output).toBe(0);
    const c = counters(e.report);
    expect(c["plumbline.flow_deepcrawl.started"]).toBeGreaterThanOrEqual(3);
    expect(c["plumbline.flow_deepcrawl.completed"]).toBe(c["plumbline.flow_deepcrawl.started"]);
    const summaries = JSON.parse(readFileSync(e.report, "utf8")).aggregate.summaries;
    expect(summaries["plumbline.flow_deepcrawl.zip_download"].count).toBe(c["plumbline.flow_deepcrawl.completed"]);
    // polled at the scenario's 100 ms think time, not hammered: a 150 ms task takes a few polls
    expect(c["plumbline.deepcrawlStatus.answered"] / c["plumbline.flow_deepcrawl.started"]).toBeLessThan(10);
    const account = await runLoadAccount({ target: mock.url, apiKey: KEY, report: e.report, state: e.state });
    expect(account).toMatchObject({ ok: true, exitCode: 0, credits: { pass: true } });
  }, 180_000);

  it("keeps within the target's limits: a 429 within its policy is throttling, never an error", async () => {
    // the mock allows 30 requests a minute; the script is told 1200 (36 arrivals in 2 s, more than the 30) and meets
    // the real limit in the RateLimit headers of its answers
    const e = await exported("limited", {
      scenario: "search",
      target: limited.url,
      thresholds: PASS,
      rateLimit: "1200",
      durationSeconds: 2,
      warmupSeconds: 0,
    });
    expect(e.plan.rateLimits).toMatchObject({ source: "stated", allowedRate: 20 });
    expect(e.plan.phases.rate).toBe(18);
    await runLoadAccount({ target: limited.url, apiKey: KEY, before: true, state: e.state });
    const art = await runArtillery(e.script, e.report, KEY);
    expect(art.code, art.output).toBe(0);
    const c = counters(e.report);
    expect(c["plumbline.overall.answered"] - c["plumbline.overall.throttled"]).toBeLessThanOrEqual(30);
    expect(c["plumbline.overall.throttled"] + c["plumbline.overall.held_back"]).toBeGreaterThan(0);
    expect(c["plumbline.overall.unexpected"]).toBe(0);
    // the account step would wait out the spent window (Retry-After); the mock's clock moves past it instead
    await fetch(`${limited.url}/__mock/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ms: 61_000 }),
    });
    const account = await runLoadAccount({ target: limited.url, apiKey: KEY, report: e.report, state: e.state });
    expect(account).toMatchObject({ ok: true, exitCode: 0, credits: { pass: true } });
  }, 180_000);
});
