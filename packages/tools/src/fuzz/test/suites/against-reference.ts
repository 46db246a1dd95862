// The fuzzer against the reference (issue 6: "runs against the mock in npm test and against the reference"), a
// seeded run of a fixed number of cases so that what it covers does not depend on the machine's speed (issue 25): the operations a fixture site exercises (crawl, sitemap, usage; /health after the
// run), URLs from a fixture site it really fetches, the model on a real clock with one shared key. Every property
// passes; throughput is measured.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REFERENCE_PAYMENT_KEY } from "../reference-process.ts";
import { referenceFuzzRun } from "./reference-fuzz-run.ts";
import { IMPLEMENTED, type SharedReference } from "./shared-reference.ts";

/**
 * Cases per input property (the model a tenth as many); a real target does real fetches, the file's largest part.
 * 100 already gets real pages, the 404/410/502 the fixture predicts and both rejection statuses (seeds 1-4 too);
 * PLUMBLINE_FUZZ_REFERENCE_RUNS searches longer
 */
const RUNS = Number(process.env.PLUMBLINE_FUZZ_REFERENCE_RUNS ?? 100);

export function againstReferenceSuite(shared: SharedReference): void {
  describe("plumbline fuzz against the reference (--operations crawl,sitemap,usage --fixture-url)", () => {
    const run = referenceFuzzRun(shared, "plumbline-fuzz-ref-", {
      paymentKey: REFERENCE_PAYMENT_KEY,
      seed: 20261126,
      runs: RUNS,
      operations: IMPLEMENTED,
    });

    it("finds nothing: every property holds and the reference is healthy after the run", () => {
      const { result, lines } = run;
      const failures = result.report.properties.filter((p) => !p.passed).map((p) => p.failure);
      expect(failures, lines.join("\n")).toEqual([]);
      expect(result.exitCode, lines.join("\n")).toBe(0);
      expect(result.report.properties.map((p) => p.property)).toEqual([
        "valid-input",
        "invalid-input",
        "stateful-model",
      ]);
      expect(result.report.health?.passed).toBe(true);
    });

    it("takes the target's measure: no admin API, so one worker, no clock commands, the fixture site read", () => {
      const { result } = run;
      expect(result.report.target).toMatchObject({ admin: false, clock: null });
      for (const p of result.report.properties) expect(p.workers).toBe(1);
      const fixture = result.report.fixture;
      expect(fixture?.pages.length).toBeGreaterThanOrEqual(3);
      expect(fixture?.failing.some((u) => u.endsWith("/retired.html"))).toBe(true);
      expect(fixture?.failing).toContain("http://plumbline-fuzz-unreachable.invalid/");
      const html = readFileSync((result.files as { html: string }).html, "utf8");
      expect(html).toContain(`fixture site</th><td>${shared.site.url}`);
    });

    it("calls only the selected operations, gets real pages and the failures the fixture predicts", () => {
      const { result } = run;
      const [valid, invalid, model] = result.report.properties;
      for (const p of [valid, invalid]) expect(Object.keys(p.byOperation).sort()).toEqual([...IMPLEMENTED].sort());
      expect(valid.byStatus["200"]).toBeGreaterThan(0);
      const failing = ["404", "410", "502"].reduce((n, s) => n + (valid.byStatus[s] ?? 0), 0);
      expect(failing, JSON.stringify(valid.byStatus)).toBeGreaterThan(0);
      expect(Object.keys(invalid.byStatus).sort()).toEqual(["400", "422"]);
      expect(model.commands).toBeGreaterThan(10);
    });

    it("measures and reports its throughput", () => {
      const { result } = run;
      const { totals, properties } = result.report;
      const [valid, invalid, model] = properties;
      console.log(
        `fuzz against the reference: ${totals.cases} cases in ${totals.seconds.toFixed(1)} s = ` +
          `${totals.casesPerSecond.toFixed(0)} cases/s (valid ${valid.casesPerSecond.toFixed(0)}/s, invalid ` +
          `${invalid.casesPerSecond.toFixed(0)}/s; model ${model.cases} runs, ${model.commands} commands); ` +
          `valid statuses ${JSON.stringify(valid.byStatus)}`,
      );
      expect([valid.cases, invalid.cases]).toEqual([RUNS, RUNS]);
    });
  });
}
