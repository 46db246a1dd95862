// A fuzz run's properties as the one report record (what fuzz.json's `records` and the gate's fuzz stage hold).
import { describe, expect, it } from "vitest";
import { fuzzRecords } from "../report/fuzz-records.ts";
import type { PropertyReport } from "../report/fuzz-report.ts";

const property = (o: Partial<PropertyReport>): PropertyReport => ({
  property: "valid-input",
  passed: true,
  workers: 1,
  cases: 10,
  seconds: 1.5,
  secondsToFailure: null,
  casesPerSecond: 6.7,
  byOperation: {},
  byStatus: {},
  throttled: 0,
  waived: {},
  failure: null,
  ...o,
});

describe("fuzz records", () => {
  it("a failed property carries its findings, the first curl and the operation; health after the run is one more", () => {
    const failed = property({
      passed: false,
      failure: {
        seed: 1,
        path: null,
        shrinks: 2,
        failures: [
          { check: "contract-rule", message: "429: rate-limit-headers: 429 without a RateLimit-Policy header" },
          { check: "charge-exact", message: "balance 10 → 8 (charged 2); expected 1" },
        ],
        error: null,
        case: {
          operationId: "search",
          request: { method: "POST", path: "/search", body: { query: "q" } },
          violation: null,
        },
        sequence: null,
        curl: ["curl -X POST http://t/search", "curl http://t/usage"],
        corpusFile: null,
      },
    });
    expect(
      fuzzRecords({ properties: [property({}), failed], health: { passed: false, message: "/health 503" } }),
    ).toEqual([
      { id: "valid-input", group: "fuzz.property", durationMs: 1500, status: "passed" },
      {
        id: "valid-input",
        group: "fuzz.property",
        durationMs: 1500,
        status: "failed",
        message: "contract-rule: 429: rate-limit-headers: 429 without a RateLimit-Policy header",
        details:
          "contract-rule: 429: rate-limit-headers: 429 without a RateLimit-Policy header\ncharge-exact: balance 10 → 8 (charged 2); expected 1",
        curl: "curl -X POST http://t/search",
        operation: "search",
      },
      { id: "healthy after the run", group: "fuzz.health", status: "failed", durationMs: 0, message: "/health 503" },
    ]);
  });
});
