// The suite against `prism mock spec/openapi.yaml` (issue 4): Prism validates and answers examples but keeps no
// state, and the suite must say so: billing, batch and deepcrawl checks fail while Prism's stateless answers pass
// the schema checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPrism, startPrism } from "../../../../../test-support/prism.ts";
import { runConformance } from "../index.ts";
import type { ConformanceResult } from "../types.ts";

let prism: RunningPrism;
let result: ConformanceResult;

beforeAll(async () => {
  prism = await startPrism();
  result = await runConformance({
    target: prism.url,
    apiKey: "any-key",
    only: [
      "billing-price-per-operation",
      "batch-entries-match-request",
      "batch-summary-arithmetic",
      "deepcrawl-completes",
      "deepcrawl-unknown-id-404",
      "response-status-listed",
      "health-status-version",
    ],
    timeoutSeconds: 3,
    reportDir: null,
  });
}, 120_000);

afterAll(() => {
  prism?.stop();
});

describe("the suite against Prism's stateless mock", () => {
  it("reports its statelessness: billing, batches and deepcrawl fail", () => {
    const failed = result.checks.filter((c) => c.status === "failed").map((c) => c.id);
    expect(failed).toEqual(
      expect.arrayContaining([
        "billing-price-per-operation",
        "batch-entries-match-request",
        "deepcrawl-completes",
        "deepcrawl-unknown-id-404",
      ]),
    );
    expect(result.exitCode).toBe(1);
  });

  it("does not blame it for what it does right", () => {
    const passed = result.checks.filter((c) => c.status === "passed").map((c) => c.id);
    expect(passed).toEqual(expect.arrayContaining(["response-status-listed", "health-status-version"]));
  });
});
