// The one report record as a JUnit testcase: each status as JUnit says it, the findings in the failure's text.
import { describe, expect, it } from "vitest";
import { junitCase, recordSuites } from "./check-record.ts";

describe("a check record as JUnit", () => {
  it("a failure carries its first line, severity, every finding, expected/actual and the curl", () => {
    const c = junitCase({
      id: "payment-challenge",
      group: "proxy.search",
      status: "failed",
      message: "2 violation(s): Cache-Control is not no-store\nmore",
      severity: "major",
      expected: "no-store",
      actual: "(none)",
      curl: "curl -X POST http://h/search",
      durationMs: 1500,
    });
    expect(c).toEqual({
      classname: "proxy.search",
      name: "payment-challenge",
      seconds: 1.5,
      failure: {
        message: "2 violation(s): Cache-Control is not no-store",
        type: "major",
        text: "expected no-store, got (none)\ncurl: curl -X POST http://h/search",
      },
    });
  });

  it("a skip is skipped with its reason, a warning passes and says why, a pass is bare", () => {
    expect(junitCase({ id: "a", group: "g", status: "skipped", message: "[not-applicable] no window" })).toEqual({
      classname: "g",
      name: "a",
      skipped: "[not-applicable] no window",
    });
    expect(
      junitCase({
        id: "b",
        group: "g",
        status: "warning",
        message: "breaks the TS client",
        details: "- x",
        output: "about",
      }),
    ).toEqual({ classname: "g", name: "b", output: "about\nWARNING: breaks the TS client\n- x" });
    expect(junitCase({ id: "c", group: "g", status: "passed" })).toEqual({ classname: "g", name: "c" });
  });

  it("groups records into suites in the order first met", () => {
    const suites = recordSuites(
      [
        { id: "1", group: "b", status: "passed" },
        { id: "2", group: "a", status: "passed" },
        { id: "3", group: "b", status: "passed" },
      ],
      { timestamp: "t" },
    );
    expect(suites.map((s) => [s.name, s.cases.map((c) => c.name), s.timestamp])).toEqual([
      ["b", ["1", "3"], "t"],
      ["a", ["2"], "t"],
    ]);
  });
});
