// The fuzzer against the mock in npm test (issue 6 "Quality bars"): every property passes, the report is written,
// throughput is measured. Known mock issues are waived by name. A seeded run of a fixed number of cases, not a time
// budget: what it covers is the same on a fast machine and a loaded one (issue 25).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FuzzResult, runFuzz } from "../../run-fuzz.ts";
import { MOCK_KNOWN_ISSUES } from "../mock-known-issues.ts";
import { MOCK_KEY, MOCK_PAYMENT_KEY } from "../mock-process.ts";
import type { SharedMock } from "./shared-mock.ts";

/**
 * cases per input property (the model runs a tenth as many sequences); PLUMBLINE_FUZZ_RUNS searches longer. 200
 * already reaches every operation with successes and both rejection statuses, and the model pays (seeds 1-4 too);
 * 1000 cost the file ~9 CPU-seconds more, most of them in the mock
 */
const RUNS = Number(process.env.PLUMBLINE_FUZZ_RUNS ?? 200);

export function againstMockSuite(shared: SharedMock): void {
  let dir: string;
  let result: FuzzResult;
  const lines: string[] = [];

  describe("plumbline fuzz against the mock", () => {
    beforeAll(async () => {
      const mock = shared.mock;
      dir = mkdtempSync(join(tmpdir(), "plumbline-fuzz-"));
      result = await runFuzz({
        target: mock.url,
        apiKey: MOCK_KEY,
        paymentKey: MOCK_PAYMENT_KEY,
        seed: 20261125,
        runs: RUNS,
        reportDir: join(dir, "report"),
        corpusDir: join(dir, "corpus"),
        waivers: MOCK_KNOWN_ISSUES,
        onProgress: (l) => lines.push(l),
      });
    }, 120_000);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("finds nothing: every property holds and the mock is healthy after the run", () => {
      const failures = result.report.properties.filter((p) => !p.passed).map((p) => p.failure);
      expect(failures, lines.join("\n")).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.report.properties.map((p) => p.property)).toEqual([
        "valid-input",
        "invalid-input",
        "stateful-model",
      ]);
      expect(result.report.health?.passed).toBe(true);
    });

    it("exercises every operation, success and rejection alike, and the model's commands", () => {
      const [valid, invalid, model] = result.report.properties;
      for (const op of [
        "search",
        "news",
        "crawl",
        "screenshot",
        "sitemap",
        "trending",
        "extract",
        "deepcrawl",
        "usage",
      ]) {
        expect(valid.byOperation[op], op).toBeGreaterThan(0);
        expect(invalid.byOperation[op], op).toBeGreaterThan(0);
      }
      expect(Object.keys(invalid.byStatus).sort()).toEqual(["400", "422"]);
      expect(model.commands).toBeGreaterThan(10);
    });

    it("pays for calls in the stateful model: the mock received test-method payments", async () => {
      const { payments } = (await (await fetch(`${shared.mock.url}/__mock/payments`)).json()) as {
        payments: Array<{ method: string }>;
      };
      expect(payments.length, lines.join("\n")).toBeGreaterThan(0);
      expect(new Set(payments.map((p) => p.method))).toEqual(new Set(["test"]));
    });

    it("measures and reports its throughput", () => {
      const { totals } = result.report;
      console.log(
        `fuzz against the mock: ${totals.cases} cases in ${totals.seconds.toFixed(1)} s = ${totals.casesPerSecond.toFixed(0)} cases/s`,
      );
      const [valid, invalid] = result.report.properties;
      expect([valid.cases, invalid.cases]).toEqual([RUNS, RUNS]);
      expect(lines.some((l) => /cases\/s/.test(l))).toBe(true);
    });

    it("writes fuzz.json and a self-contained report.html", () => {
      expect(result.files).not.toBeNull();
      const files = result.files as { json: string; html: string };
      const json = JSON.parse(readFileSync(files.json, "utf8"));
      expect(json).toMatchObject({ tool: "plumbline fuzz", seed: 20261125, exitCode: 0 });
      const html = readFileSync(files.html, "utf8");
      expect(html).toContain("plumbline fuzz: nothing found");
      expect(html).not.toMatch(/<script|<link /);
      expect(existsSync(join(dir, "corpus"))).toBe(false);
    });
  });
}
