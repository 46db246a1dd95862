// The fuzzer's three properties with `--operations screenshot,usage` against the reference (issue 11 "Done when": the
// stateful model runs green): real screenshots of the fixture site's pages in Chromium, every option drawn from the
// schema (selectors that match every page, D-screenshot-readiness), the balance charged for successes only.
import { describe, expect, it } from "vitest";
import { referenceFuzzRun } from "./reference-fuzz-run.ts";
import type { SharedReference } from "./shared-reference.ts";

/** cases per input property, each valid one a real screenshot (the model a tenth as many sequences) */
const RUNS = Number(process.env.PLUMBLINE_FUZZ_SCREENSHOT_RUNS ?? 5);

export function screenshotReferenceSuite(shared: SharedReference): void {
  describe("plumbline fuzz against the reference (--operations screenshot,usage --fixture-url)", () => {
    const run = referenceFuzzRun(shared, "plumbline-fuzz-shot-", {
      seed: 20261127,
      runs: RUNS,
      operations: ["screenshot", "usage"],
    });

    it("finds nothing: real screenshots, the model's balance exact after every command", () => {
      const { result, lines } = run;
      const failures = result.report.properties.filter((p) => !p.passed).map((p) => p.failure);
      expect(failures, lines.join("\n")).toEqual([]);
      expect(result.exitCode, lines.join("\n")).toBe(0);
      const [valid, , model] = result.report.properties;
      expect(model.property).toBe("stateful-model");
      expect(model.commands).toBeGreaterThan(0);
      expect(valid.byOperation.screenshot).toBeGreaterThan(0);
      expect(valid.byStatus["200"]).toBeGreaterThan(0);
    });
  });
}
