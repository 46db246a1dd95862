// `plumbline gate` run as the README's CI recipe runs it (issue 17): the implementation under test started as its own
// process, then the gate CLI against it; green against the mock and the reference, red against a faulty target,
// with one exit code, one JUnit file holding a suite per stage and one HTML page linking the stages' reports.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startFixtureServer } from "../../conformance/fixtures/fixture-server.ts";
import { startFaultProxy } from "../../conformance/test/fault-proxy.ts";
import { BIN, startMockProcess } from "../../test-support/mock-process.ts";
import { startReferenceProcess } from "../../test-support/reference-process.ts";

const THRESHOLDS = fileURLToPath(new URL("./fixtures/gate-thresholds.json", import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function gate(args: string[]): Promise<{ code: number; out: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "plumbline-gate-"));
  dirs.push(dir);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, "gate", ...args, "--report-dir", dir],
      { timeout: 170_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === "number" ? code : 1, out: stdout + stderr, dir });
      },
    );
  });
}

const junitSuites = (dir: string) =>
  [...readFileSync(join(dir, "junit.xml"), "utf8").matchAll(/<testsuite name="([^"]+)"[^>]*failures="(\d+)"/g)].map(
    (m) => [m[1], Number(m[2])],
  );

describe("plumbline gate", () => {
  it("passes against the mock: three stages, one JUnit file, one page linking the three reports", async () => {
    const mock = await startMockProcess(["--key", "GATE:100000000", "--key", "BROKE:0", "--rate-limit", "0"]);
    try {
      const r = await gate([
        "--target",
        mock.url,
        "--api-key",
        "GATE",
        "--broke-api-key",
        "BROKE",
        "--thresholds",
        THRESHOLDS,
        "--time",
        "25",
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
    } finally {
      await mock.stop();
    }
  }, 180_000);

  it("passes against the reference, on the operations it implements, within a credit budget", async () => {
    const fixtures = await startFixtureServer();
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
        "--scenario",
        "reference",
        // correctness budgets, not the reference's speed budgets: this runs beside other test files (issue 25)
        "--thresholds",
        THRESHOLDS,
        "--budget-credits",
        "400",
        "--time",
        "30",
      ]);
      expect(r.code, r.out.slice(-3000)).toBe(0);
      expect(junitSuites(r.dir).map(([s]) => s)).toEqual(["conform", "fuzz", "load"]);
      const json = JSON.parse(readFileSync(join(r.dir, "gate.json"), "utf8"));
      expect(json.creditsSpent).toBeGreaterThan(0);
      expect(json.creditsSpent).toBeLessThanOrEqual(400);
    } finally {
      await reference.stop();
      await fixtures.close();
    }
  }, 180_000);

  it("fails against a faulty target, naming the failed check in the JUnit file", async () => {
    const mock = await startMockProcess(["--key", "GATE:100000000", "--rate-limit", "0"]);
    // a target that stops sending request ids (D-headers)
    const proxy = await startFaultProxy(mock.url, {
      rewrite: (_req, res) => {
        const headers = { ...res.headers };
        delete headers["x-request-id"];
        return { ...res, headers };
      },
    });
    try {
      const r = await gate(["--target", proxy.url, "--api-key", "GATE", "--stages", "conform", "--time", "60"]);
      expect(r.code, r.out.slice(-3000)).toBe(1);
      const [[suite, failures]] = junitSuites(r.dir);
      expect(suite).toBe("conform");
      expect(failures).toBeGreaterThan(0);
      expect(readFileSync(join(r.dir, "junit.xml"), "utf8")).toMatch(
        /<testcase name="[^"]*request-id[^"]*"[^>]*><failure/,
      );
      expect(readFileSync(join(r.dir, "index.html"), "utf8")).toContain("plumbline gate: FAILED");
    } finally {
      await proxy.close();
      await mock.stop();
    }
  }, 180_000);
});
