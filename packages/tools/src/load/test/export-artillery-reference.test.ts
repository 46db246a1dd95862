// Issue 31: the reference scenario exported as an Artillery script (its bodies on the conformance fixture site) and
// run by Artillery (a child process, a few seconds of load on 127.0.0.1) against the reference started through its
// CLI. Artillery's `ensure` verdict agrees with `plumbline load`'s on the same target and thresholds (both pass; both
// fail the same budgets no machine meets), and the credit accounting step passes after the Artillery run.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runArtillery } from "../../../../../test-support/artillery-process.ts";
import { type ReferenceProcess, startReferenceProcess } from "../../../../../test-support/reference-process.ts";
import { type FixtureServer, startFixtureServer } from "../../conformance/fixtures/fixture-server.ts";
import { runLoadAccount } from "../export/load-account.ts";
import { runLoadExport } from "../export/run-export.ts";
import { runLoad } from "../run-load.ts";

const PASS = fileURLToPath(new URL("./fixtures/export-pass.json", import.meta.url));
const IMPOSSIBLE = fileURLToPath(new URL("./fixtures/export-impossible.json", import.meta.url));
const KEY = "RART";
const dir = mkdtempSync(join(tmpdir(), "plb-export-ref-"));
const SHAPE = { rate: 10, durationSeconds: 2, warmupSeconds: 1 };
// the budgets no machine meets fail at the first crawls: 10 arrivals, two thirds of them crawls, for each tool
const SHORT = { rate: 10, durationSeconds: 1, warmupSeconds: 0 };
let site: FixtureServer;
let reference: ReferenceProcess;

beforeAll(async () => {
  site = await startFixtureServer();
  reference = await startReferenceProcess({ keys: [`${KEY}:1000000`], args: ["--rate-limit", "0"] });
}, 120_000);
afterAll(async () => {
  await reference?.stop();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function exportAndRun(name: string, thresholds: string, shape = SHAPE) {
  const out = join(dir, name);
  const e = await runLoadExport({
    ...shape,
    scenario: "reference",
    target: reference.url,
    fixtureUrl: site.url,
    thresholds,
    format: "artillery",
    outDir: out,
  });
  if (!e.ok) throw new Error(e.error);
  const state = join(out, "account.json");
  const report = join(out, "report.json");
  expect(await runLoadAccount({ target: reference.url, apiKey: KEY, before: true, state })).toMatchObject({ ok: true });
  const art = await runArtillery(e.files.find((f) => f.endsWith(".yml")) as string, report, KEY);
  const account = await runLoadAccount({ target: reference.url, apiKey: KEY, report, state });
  const own = await runLoad({
    ...shape,
    target: reference.url,
    apiKey: KEY,
    scenario: "reference",
    fixtureUrl: site.url,
    thresholds,
    reportDir: null,
  });
  return { e, art, account, own, report };
}

describe("the reference scenario, exported to Artillery, against the reference", () => {
  it("passes where plumbline load passes, every request answered as the scenario expects, the credits exact", async () => {
    const { e, art, account, own, report } = await exportAndRun("pass", PASS);
    expect(
      art.checks.filter((c) => !c.ok),
      art.output,
    ).toEqual([]);
    expect(art.code, art.output).toBe(0);
    expect(art.checks.length).toBe(e.checks.checks.length);
    const c = JSON.parse(readFileSync(report, "utf8")).aggregate.counters as Record<string, number>;
    // the reference really fetched the fixture site: crawls and sitemaps answered, nothing unexpected
    expect(c["plumbline.crawl.answered"]).toBeGreaterThan(0);
    expect(c["plumbline.overall.unexpected"] + c["plumbline.overall.failed"]).toBe(0);
    expect(account).toMatchObject({ ok: true, exitCode: 0, credits: { checked: true, pass: true } });
    if (account.ok && account.mode === "check") expect(account.credits.spent).toBe(c["plumbline.credits.counted"]);
    expect(own.ok ? own.report.breaches : own.error).toEqual([]);
    expect(own.exitCode).toBe(0);
  }, 180_000);

  it("fails where plumbline load fails, on the same thresholds", async () => {
    const { e, art, account, own } = await exportAndRun("impossible", IMPOSSIBLE, SHORT);
    expect(art.code, art.output).toBe(1);
    const failed = art.checks.filter((c) => !c.ok).map((c) => c.condition);
    const artilleryFailed = e.checks.checks
      .filter((c) => failed.includes(c.artillery as string))
      .map((c) => `${c.key}: ${c.expression}`)
      .sort();
    expect(artilleryFailed).toEqual(["crawl: count > 1000000000", "overall: p(99) < 0ms"]);
    expect(own.ok && own.exitCode).toBe(1);
    if (own.ok)
      expect(
        own.report.thresholds
          .filter((t) => t.status === "failed")
          .map((t) => `${t.key}: ${t.expression}`)
          .sort(),
      ).toEqual(artilleryFailed);
    // a failed budget is not a failed account: the credits still add up
    expect(account).toMatchObject({ ok: true, exitCode: 0 });
  }, 180_000);
});
