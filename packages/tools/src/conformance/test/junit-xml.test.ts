// The suite's junit.xml stays valid XML whatever a target's answers put in the failure messages.
import { describe, expect, it } from "vitest";
import { HOSTILE, HOSTILE_KEPT, parseValidXml } from "../../../../../test-support/xml-hostile.ts";
import { junitXml } from "../report/junit-xml.ts";
import type { CheckResult, ConformanceResult } from "../types.ts";

function check(status: CheckResult["status"], id: string): CheckResult {
  return {
    id,
    title: HOSTILE,
    severity: "major",
    section: HOSTILE,
    basis: { kind: "contract" },
    status,
    reason: status === "failed" || status === "passed" ? undefined : HOSTILE,
    skipKind: status === "skipped" ? "broke-key" : undefined,
    failures:
      status === "failed" || status === "warning"
        ? [{ message: HOSTILE, expected: HOSTILE, actual: HOSTILE, exchanges: [1] }]
        : [],
    notes: [HOSTILE],
    exchangeIds: [1],
    durationMs: 12,
  };
}

describe("conformance junit.xml", () => {
  it("is valid XML with control characters, lone surrogates, ]]> and markup in every message", () => {
    const checks = [
      check("failed", "schema-a"),
      check("warning", "schema-b"),
      check("skipped", "auth-c"),
      check("passed", "auth-d"),
    ];
    const result: ConformanceResult = {
      exitCode: 1,
      target: HOSTILE,
      profile: "strict",
      startedAt: "2026-01-01T00:00:00.000Z",
      durationMs: 2000,
      planCredits: 0,
      summary: { total: 4, passed: 1, failed: 1, warning: 1, skipped: 1 },
      skips: [{ kind: "broke-key", count: 1, precondition: true, allowed: false, reason: HOSTILE, checks: ["auth-c"] }],
      checks,
      exchanges: [],
    };
    const xml = junitXml(result);
    const doc = parseValidXml(xml) as { testsuites: Record<string, unknown> & { testsuite: unknown[] } };
    expect(doc.testsuites["@_tests"]).toBe("5");
    expect(doc.testsuites["@_failures"]).toBe("2");
    expect(doc.testsuites["@_skipped"]).toBe("1");
    expect(doc.testsuites.testsuite).toHaveLength(3);
    const schema = doc.testsuites.testsuite[0] as { testcase: Array<{ failure?: { "#text": string } }> };
    for (const kept of HOSTILE_KEPT) expect(schema.testcase[0].failure?.["#text"]).toContain(kept);
  });
});
