// Issue 31: plumbline's scenarios exported as Artillery scripts and run by Artillery itself (a child process, a few
// seconds of load on 127.0.0.1) against the mock. Artillery's `ensure` verdict must agree with `plumbline load`'s on
// the same target, traffic shape and thresholds: both pass the budgets any target meets, both fail (by the same
// names) budgets no machine meets; and the credit accounting step passes after the run, and fails on a tampered report.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runArtillery } from "../../../../../test-support/artillery-process.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runLoadAccount } from "../export/load-account.ts";
import { type LoadExportOptions, runLoadExport } from "../export/run-export.ts";
import { runLoad } from "../run-load.ts";

const PASS = fileURLToPath(new URL("./fixtures/export-pass.json", import.meta.url));
const IMPOSSIBLE = fileURLToPath(new URL("./fixtures/export-impossible.json", import.meta.url));
const KEY = "ART";
const dir = mkdtempSync(join(tmpdir(), "plb-export-mock-"));
let mock: MockProcess;

// the same traffic shape for both tools: an open loop at 20 arrivals/s, 1 s of warm-up ramp, 2 s measured
const SHAPE = { rate: 20, durationSeconds: 2, warmupSeconds: 1 };

beforeAll(async () => {
  mock = await startMockProcess(["--key", `${KEY}:1000000000`, "--rate-limit", "0"]);
});
afterAll(async () => {
  await mock?.stop();
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

describe("the mixed scenario, exported to Artillery, against the mock", () => {
  it("passes where plumbline load passes, and the account step finds the credits exact (a tampered report fails)", async () => {
    const e = await exported("mixed-pass", { scenario: "mixed", target: mock.url, thresholds: PASS });
    const before = await runLoadAccount({ target: mock.url, apiKey: KEY, before: true, state: e.state });
    expect(before).toMatchObject({ ok: true, mode: "before" });

    const art = await runArtillery(e.script, e.report, KEY);
    expect(
      art.checks.filter((c) => !c.ok),
      art.output,
    ).toEqual([]);
    expect(art.code, art.output).toBe(0);
    // every threshold this scenario exercises became one ensure condition, and Artillery judged each
    expect(art.checks.map((c) => c.condition).sort()).toEqual(e.checks.checks.map((c) => c.artillery).sort());
    const c = counters(e.report);
    expect(c["plumbline.overall.answered"]).toBeGreaterThanOrEqual(20);
    expect(c["plumbline.overall.unexpected"]).toBe(0);
    // every status Artillery saw is one the scenario expects of some request (refusals of invalid or unpaid ones too)
    const expected = new Set(e.plan.templates.flatMap((t) => t.expect.map(String)));
    const seen = Object.keys(c).filter((k) => k.startsWith("http.codes."));
    expect(seen.length).toBeGreaterThan(0);
    for (const k of seen) expect(expected, k).toContain(k.slice("http.codes.".length));

    const account = await runLoadAccount({ target: mock.url, apiKey: KEY, report: e.report, state: e.state });
    expect(account.ok && account.mode === "check" && account.credits, JSON.stringify(account)).toMatchObject({
      checked: true,
      pass: true,
      unresolved: 0,
    });
    expect(account.exitCode).toBe(0);
    if (account.ok && account.mode === "check") expect(account.credits.spent).toBe(c["plumbline.credits.counted"]);

    // the same report with one credit more counted, or without the script's counters: the account step refuses it
    const doc = JSON.parse(readFileSync(e.report, "utf8"));
    doc.aggregate.counters["plumbline.credits.counted"] += 1;
    const tampered = join(dir, "tampered.json");
    writeFileSync(tampered, JSON.stringify(doc));
    const bad = await runLoadAccount({ target: mock.url, apiKey: KEY, report: tampered, state: e.state });
    expect(bad).toMatchObject({ ok: true, exitCode: 1, credits: { pass: false } });
    if (bad.ok && bad.mode === "check") expect(bad.credits.detail).toMatch(/under-charged by 1$/);
    delete doc.aggregate.counters["plumbline.credits.counted"];
    writeFileSync(tampered, JSON.stringify(doc));
    const none = await runLoadAccount({ target: mock.url, apiKey: KEY, report: tampered, state: e.state });
    expect(none).toMatchObject({
      ok: false,
      exitCode: 2,
      error: expect.stringMatching(/no plumbline credit counters/),
    });

    const own = await runLoad({
      target: mock.url,
      apiKey: KEY,
      scenario: "mixed",
      thresholds: PASS,
      ...SHAPE,
      reportDir: null,
    });
    expect(own.ok ? own.report.breaches : own.error).toEqual([]);
    expect(own.exitCode).toBe(0);
  }, 180_000);

  it("fails where plumbline load fails: the same thresholds, named the same way", async () => {
    const e = await exported("mixed-impossible", { scenario: "mixed", target: mock.url, thresholds: IMPOSSIBLE });
    const art = await runArtillery(e.script, e.report, KEY);
    expect(art.code, art.output).toBe(1);
    const failedConditions = art.checks.filter((c) => !c.ok).map((c) => c.condition);
    const failedKeys = e.checks.checks
      .filter((c) => failedConditions.includes(c.artillery as string))
      .map((c) => `${c.key}: ${c.expression}`);

    const own = await runLoad({
      target: mock.url,
      apiKey: KEY,
      scenario: "mixed",
      thresholds: IMPOSSIBLE,
      ...SHAPE,
      reportDir: null,
    });
    expect(own.ok).toBe(true);
    if (!own.ok) return;
    expect(own.exitCode).toBe(1);
    const ownFailed = own.report.thresholds
      .filter((t) => t.status === "failed")
      .map((t) => `${t.key}: ${t.expression}`);
    expect(failedKeys.sort()).toEqual(ownFailed.sort());
    expect(failedKeys.sort()).toEqual([
      "crawl: count > 1000000000",
      "overall: p(99) < 0ms",
      "search: count > 1000000000",
    ]);
  }, 180_000);
});
