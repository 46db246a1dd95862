// `plumbline gate` run as the README's CI recipe runs it (issue 17): the implementation under test started as its own
// process, then the gate CLI against it; green against the mock and the reference, red against a faulty target,
// with one exit code, one JUnit file holding a suite per stage and one HTML page linking the stages' reports.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { startReferenceProcess } from "../../../../../test-support/reference-process.ts";
import { startFixtureServer } from "../../conformance/fixtures/fixture-server.ts";
import { startFaultProxy } from "../../conformance/test/fault-proxy.ts";
import { gate, junitSuites, removeGateReports, tempDir } from "./gate-cli.ts";

// One mock for the tests against it, none of which judges its start: the waiting test starts it (it must come up
// on the port that test's gate waits on, after the gate), the others reuse it (a mock process costs ~1 s of CPU).
const MOCK_ARGS = ["--key", "GATE:100000000", "--key", "BROKE:0", "--rate-limit", "0"];
let shared: MockProcess | undefined;
const sharedMock = async () => {
  shared ??= await startMockProcess(MOCK_ARGS);
  return shared;
};
afterAll(async () => {
  await shared?.stop();
  removeGateReports();
});

describe("plumbline gate", () => {
  it("waits for a target started in the background just before it (a CI step), and says so when none comes", async () => {
    // a free port, then the gate first and the mock a second later, as `plumbline mock … & plumbline gate …` does
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const target = `http://127.0.0.1:${port}`;
    const none = await gate(["--target", target, "--api-key", "GATE", "--wait-for-target", "1"]);
    expect(none.code).toBe(2);
    expect(none.out).toContain(
      `nothing answers at ${target} (connection refused): is the server running? (waited 1 s; --wait-for-target S waits longer)`,
    );
    const running = gate([
      "--target",
      target,
      "--api-key",
      "GATE",
      "--stages",
      "conform",
      // what is judged here is the wait: conformance on one operation is enough of a stage after it
      "--operations",
      "usage",
      "--allow-skipped",
      "broke-key",
    ]);
    await new Promise((r) => setTimeout(r, 1000));
    const mock = await startMockProcess(["--port", String(port), ...MOCK_ARGS]);
    try {
      const r = await running;
      expect(r.code, r.out.slice(-3000)).toBe(0);
      expect(r.out).toMatch(/gate: conform passed/);
    } finally {
      // the mock of the tests after this one (stopped after the file), unless they have one already
      if (shared) await mock.stop();
      else shared = mock;
    }
  }, 180_000);

  it("passes against the mock: three stages, one JUnit file, one page linking the three reports; pays with --payment-key", async () => {
    const mock = await sharedMock();
    const r = await gate([
      "--target",
      mock.url,
      "--api-key",
      "GATE",
      "--broke-api-key",
      "BROKE",
      "--payment-method",
      "test",
      "--payment-key",
      "plumbline-demo-payment-key",
      // the fuzz and load stages share what conformance leaves of it: a short box is all three stages still,
      // and the fuzz stage does a fixed amount of work (20 cases per input property, 2 model sequences)
      "--time",
      "15",
      "--fuzz-runs",
      "20",
      "--fuzz-seed",
      "7",
    ]);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(junitSuites(r.dir)).toEqual([
      ["conform", 0],
      ["fuzz", 0],
      ["load", 0],
    ]);
    const page = readFileSync(join(r.dir, "index.html"), "utf8");
    for (const link of ["conform/report.html", "fuzz/report.html", "load/report.html", "junit.xml"]) {
      expect(page).toContain(`href="${link}"`);
      expect(existsSync(join(r.dir, link))).toBe(true);
    }
    const json = JSON.parse(readFileSync(join(r.dir, "gate.json"), "utf8"));
    expect(json.stages.map((s: { stage: string; exitCode: number }) => [s.stage, s.exitCode])).toEqual([
      ["conform", 0],
      ["fuzz", 0],
      ["load", 0],
    ]);
    const fuzz = JSON.parse(readFileSync(join(r.dir, "fuzz", "fuzz.json"), "utf8"));
    expect(fuzz.seed).toBe(7);
    expect(fuzz.budget.runs).toBe(20);
    // at most the runs (shared by the property's workers, each rounding its share up; the model a tenth): without
    // them the stage would fill its share of the box; fewer when the share ran out first on a busy machine
    for (const p of fuzz.properties as Array<{ property: string; cases: number; workers: number }>) {
      const cap = p.property === "stateful-model" ? 2 : 20 + p.workers;
      expect(p.cases, p.property).toBeGreaterThan(0);
      expect(p.cases, p.property).toBeLessThanOrEqual(cap);
    }
    // the payment key reached the conformance stage: its payment checks ran instead of being skipped
    expect(json.stages[0].summary).not.toMatch(/payment-key/);
    const conform = JSON.parse(readFileSync(join(r.dir, "conform", "conformance.json"), "utf8"));
    expect(conform.checks.find((c: { id: string }) => c.id === "payment-receipt")).toMatchObject({
      status: "passed",
    });
  }, 180_000);

  it("passes against the reference, on the operations it implements, within a credit budget", async () => {
    // issue 27: a fixture site the run does not serve comes with its manifest (the canary's tokens) and, for
    // sitemap-no-page-content, its request log
    const site = tempDir("plumbline-gate-fixtures-");
    const manifest = join(site, "manifest.json");
    const requestLog = join(site, "requests.log");
    const fixtures = await startFixtureServer(0, "127.0.0.1", {
      onRequest: (u) => appendFileSync(requestLog, `${u}\n`),
    });
    writeFileSync(manifest, JSON.stringify(fixtures.manifest()));
    const reference = await startReferenceProcess({ keys: ["GATE:100000", "BROKE:0"], args: ["--rate-limit", "0"] });
    try {
      const r = await gate([
        "--target",
        reference.url,
        "--api-key",
        "GATE",
        "--broke-api-key",
        "BROKE",
        "--operations",
        "crawl,sitemap",
        "--fixture-url",
        fixtures.url,
        "--fixture-manifest",
        manifest,
        "--fixture-log",
        requestLog,
        // the gate has no test payment key and signs in to no consent page: those checks skip, accepted by name
        "--allow-skipped",
        "payment-key,oauth-account",
        "--scenario",
        "reference",
        // no --thresholds: the gate's default correctness budgets, not the reference's speed budgets (issue 25).
        // The load stage's rate is the credits left over its share of the box (load-price.ts plannedLoadRate): a
        // slow machine gets a shorter run, not a faster one. Conformance and the fuzzer take ~30 of these 100
        // credits, so the load stage stays within tens of crawls a second.
        "--budget-credits",
        "100",
        "--time",
        "20",
        "--fuzz-runs",
        "50",
      ]);
      expect(r.code, r.out.slice(-3000)).toBe(0);
      expect(junitSuites(r.dir).map(([s]) => s)).toEqual(["conform", "fuzz", "load"]);
      const json = JSON.parse(readFileSync(join(r.dir, "gate.json"), "utf8"));
      expect(json.creditsSpent).toBeGreaterThan(0);
      expect(json.creditsSpent).toBeLessThanOrEqual(100);
      // every real-page check ran: the reference read the manifest's canary page
      expect(json.stages[0].summary).not.toMatch(/fixture|synthetic/);
    } finally {
      await reference.stop();
      await fixtures.close();
    }
  }, 180_000);

  it("fails against a faulty target, naming the failed check in the JUnit file", async () => {
    const mock = await sharedMock();
    // a target that stops sending request ids (D-headers)
    const proxy = await startFaultProxy(mock.url, {
      rewrite: (_req, res) => {
        const headers = { ...res.headers };
        delete headers["x-request-id"];
        return { ...res, headers };
      },
    });
    try {
      // one operation's checks: every answer misses its request id, the header checks see it on any of them
      const r = await gate([
        "--target",
        proxy.url,
        "--api-key",
        "GATE",
        "--stages",
        "conform",
        "--operations",
        "usage",
        "--time",
        "60",
      ]);
      expect(r.code, r.out.slice(-3000)).toBe(1);
      const [[suite, failures]] = junitSuites(r.dir);
      expect(suite).toBe("conform");
      expect(failures).toBeGreaterThan(0);
      expect(readFileSync(join(r.dir, "junit.xml"), "utf8")).toMatch(
        /<testcase [^>]*name="[^"]*request-id[^"]*"[^>]*>\s*<failure/,
      );
      expect(readFileSync(join(r.dir, "index.html"), "utf8")).toContain("plumbline gate: FAILED");
    } finally {
      await proxy.close();
    }
  }, 180_000);
});
