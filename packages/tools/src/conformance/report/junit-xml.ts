// JUnit XML for CI: one testcase per check, grouped in one suite per family (the id's first word), written from the
// one report record (check-records.ts; contract/src/report/check-record.ts). A warning is a passing testcase that
// says why in system-out; JUnit has no warning state. Written by the shared JUnit writer.
import { recordSuites } from "@plumbline-kit/contract/report/check-record";
import { type JunitSuite, junitXml as writeJunit } from "@plumbline-kit/contract/report/junit";
import { checkCount, SKIP_KINDS, type SkipTally } from "../skip-reasons.ts";
import type { ConformanceResult } from "../types.ts";
import { checkRecords } from "./check-records.ts";

/**
 * One testcase per kind of skip (issue 27: skips cannot hide): a missing precondition not allowed is a failure, the
 * others pass and say in system-out how many checks were skipped and why; the suite's properties count them.
 */
function skipSuite(r: ConformanceResult, skips: SkipTally[]): JunitSuite {
  return {
    name: "conformance.skips",
    timestamp: r.startedAt,
    seconds: 0,
    properties: skips.map((t) => [`skipped.${t.kind}`, t.count]),
    cases: skips.map((t) => {
      const about = `${SKIP_KINDS[t.kind].label}\n${t.reason}\nchecks: ${t.checks.join(", ")}`;
      const verdict = !t.precondition
        ? ""
        : t.allowed
          ? `\nmissing precondition, allowed: ${t.allowedBy}`
          : `\nmissing precondition: the run fails; --allow-skipped ${t.kind} accepts it`;
      return {
        classname: "conformance.skips",
        name: `skipped: ${t.kind} (${checkCount(t)})`,
        failure: t.allowed
          ? undefined
          : { message: `precondition not met: ${t.kind}: ${t.reason}`, type: "precondition" },
        output: about + verdict,
      };
    }),
  };
}

export function junitXml(r: ConformanceResult): string {
  const suites: JunitSuite[] = recordSuites(checkRecords(r), { timestamp: r.startedAt });
  const skips = r.skips ?? [];
  if (skips.length > 0) suites.push(skipSuite(r, skips));
  return writeJunit({
    name: `plumbline conformance (${r.target}, ${r.profile})`,
    seconds: r.durationMs / 1000,
    suites,
  });
}
