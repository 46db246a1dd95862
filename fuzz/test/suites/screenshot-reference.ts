// The fuzzer's three properties with `--only screenshot,usage` against the reference (issue 11 "Done when": the
// stateful model runs green): real screenshots of the fixture site's pages in Chromium, every option drawn from the
// schema (selectors that match every page, D-screenshot-readiness), the balance charged for successes only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FuzzResult, runFuzz } from "../../run-fuzz.ts";
import { REFERENCE_KNOWN_ISSUES } from "../reference-known-issues.ts";
import { REFERENCE_KEY } from "../reference-process.ts";
import type { SharedReference } from "./shared-reference.ts";

const BUDGET_SECONDS = Number(process.env.PLUMBLINE_FUZZ_SCREENSHOT_SECONDS ?? 12);

export function screenshotReferenceSuite(shared: SharedReference): void {
  let dir: string;
  let result: FuzzResult;
  const lines: string[] = [];

  describe("plumbline fuzz against the reference (--only screenshot,usage --fixture-url)", () => {
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "plumbline-fuzz-shot-"));
      result = await runFuzz({
        target: shared.reference.url,
        apiKey: REFERENCE_KEY,
        seed: 20261127,
        timeSeconds: BUDGET_SECONDS,
        only: ["screenshot", "usage"],
        fixtureUrl: shared.site.url,
        reportDir: join(dir, "report"),
        corpusDir: join(dir, "corpus"),
        waivers: REFERENCE_KNOWN_ISSUES,
        onProgress: (l) => lines.push(l),
      });
    }, 120_000);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("finds nothing: real screenshots, the model's balance exact after every command", () => {
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
