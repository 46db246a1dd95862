// The proxy's junit.xml stays valid XML whatever the recorded traffic puts in the violations it shows.
import { describe, expect, it } from "vitest";
import { HOSTILE, HOSTILE_KEPT, parseValidXml } from "../../../../../test-support/xml-hostile.ts";
import { RULES } from "../judge/rules.ts";
import { junitXml } from "../report/report-files.ts";
import type { ProxyReport, ReportedViolation } from "../report/violation-report.ts";

describe("proxy junit.xml", () => {
  it("is valid XML with control characters, lone surrogates, ]]> and markup in the violations", () => {
    const rule = RULES[0];
    const example: ReportedViolation = {
      rule: rule.id,
      operationId: "search",
      exchangeId: 1,
      message: HOSTILE,
      expected: HOSTILE,
      actual: HOSTILE,
      at: "2026-01-01T00:00:00.000Z",
      servedBy: "upstream",
      curl: `curl ${HOSTILE}`,
      exchange: {
        method: "POST",
        path: `/search?q=${HOSTILE}`,
        url: `http://127.0.0.1:1/search`,
        httpVersion: "1.1",
        requestHeaders: [["x-test", HOSTILE]],
        requestBody: null,
        redacted: [],
      },
    };
    const report: ProxyReport = {
      tool: "plumbline proxy",
      version: "0.0.0",
      upstream: HOSTILE,
      startedAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      settings: {},
      totals: {
        exchanges: 1,
        judged: 1,
        violations: 1,
        refused: 0,
        servedBy: { upstream: 1, mock: 0, proxy: 0 },
        fallbacks: 0,
        balanceWindows: 0,
        balanceSkipped: {},
      },
      rules: RULES.map((r) => ({ ...r, count: r.id === rule.id ? 1 : 0 })),
      operations: [
        {
          operationId: HOSTILE,
          exchanges: 1,
          violations: 1,
          rules: [{ ...rule, rule: rule.id, count: 1, examples: [example] }],
        },
      ],
    };
    const doc = parseValidXml(junitXml(report)) as {
      testsuites: Record<string, string> & { testsuite: { testcase: Array<{ failure?: Record<string, string> }> } };
    };
    expect(doc.testsuites["@_tests"]).toBe(String(RULES.length));
    expect(doc.testsuites["@_failures"]).toBe("1");
    const failure = doc.testsuites.testsuite.testcase[0].failure;
    for (const kept of HOSTILE_KEPT) expect(failure?.["#text"]).toContain(kept);
  });
});
