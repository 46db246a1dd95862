// The gate's junit.xml stays valid XML whatever its stages' messages hold (it escaped markup but kept the
// characters XML forbids: a control character in a check's message made the whole file unparseable).
import { describe, expect, it } from "vitest";
import { HOSTILE, HOSTILE_KEPT, parseValidXml } from "../../../../../test-support/xml-hostile.ts";
import { gateJunit } from "../gate-junit.ts";
import type { StageOutcome } from "../gate-types.ts";

describe("gate junit.xml", () => {
  it("is valid XML with control characters, lone surrogates, ]]> and markup in every message", () => {
    const stages: StageOutcome[] = [
      {
        stage: "conform",
        exitCode: 1,
        seconds: 3,
        creditsSpent: null,
        report: null,
        summary: HOSTILE,
        cases: [
          {
            id: HOSTILE,
            group: HOSTILE,
            status: "failed",
            durationMs: 1000,
            message: `${HOSTILE}\nsecond line`,
            details: `${HOSTILE}\nsecond line`,
            curl: HOSTILE,
            expected: HOSTILE,
            actual: HOSTILE,
            output: HOSTILE,
          },
          { id: "skipped one", group: "gate.conform", status: "skipped", durationMs: 0, message: HOSTILE },
          { id: "warned one", group: "gate.conform", status: "warning", durationMs: 0, message: HOSTILE },
          { id: "passed one", group: "gate.conform", status: "passed", durationMs: 2000 },
        ],
      },
      {
        stage: "load",
        exitCode: 2,
        seconds: 0,
        creditsSpent: null,
        error: HOSTILE,
        report: null,
        summary: "",
        cases: [],
      },
    ];
    const doc = parseValidXml(gateJunit(stages)) as {
      testsuites: Record<string, string> & { testsuite: Array<{ testcase: unknown }> };
    };
    expect(doc.testsuites["@_tests"]).toBe("5");
    expect(doc.testsuites["@_failures"]).toBe("1");
    expect(doc.testsuites["@_errors"]).toBe("1");
    expect(doc.testsuites["@_skipped"]).toBe("1");
    const failed = (doc.testsuites.testsuite[0].testcase as Array<{ failure?: Record<string, string> }>)[0];
    for (const kept of HOSTILE_KEPT) expect(failed.failure?.["#text"]).toContain(kept);
    expect(failed.failure?.["@_message"]).not.toContain("second line");
    expect(doc.testsuites.testsuite[1].testcase).toMatchObject({ "@_name": "load could run" });
  });
});
