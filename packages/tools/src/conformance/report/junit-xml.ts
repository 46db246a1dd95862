// JUnit XML for CI: one testcase per check, grouped in one suite per family (the id's first word). A warning is a
// passing testcase that says why in system-out; JUnit has no warning state. Written by the shared JUnit writer.
import { type JunitCase, type JunitSuite, junitXml as writeJunit } from "@plumbline-kit/contract/report/junit";
import { checkCount, SKIP_KINDS, type SkipTally, skipKindOf } from "../skip-reasons.ts";
import { basisLabel, type CheckResult, type ConformanceResult } from "../types.ts";

const family = (id: string) => id.split("-")[0];

function testcase(c: CheckResult): JunitCase {
  const about = `${c.title}\nsection: ${c.section}\nbasis: ${basisLabel(c.basis)}\nseverity: ${c.severity}`;
  const lines = c.failures.map(
    (f) =>
      `- ${f.message}${f.expected ? ` (expected ${f.expected}, got ${f.actual ?? "?"})` : ""} [exchanges ${f.exchanges.join(", ")}]`,
  );
  const out = [about, c.status === "warning" ? `WARNING: ${c.reason}\n${lines.join("\n")}` : "", ...c.notes]
    .filter(Boolean)
    .join("\n");
  return {
    classname: `conformance.${family(c.id)}`,
    name: c.id,
    seconds: c.durationMs / 1000,
    failure:
      c.status === "failed"
        ? {
            message: c.failures[0]?.message ?? "failed",
            type: c.severity,
            text: [...(c.reason ? [c.reason] : []), ...lines].join("\n"),
          }
        : undefined,
    skipped: c.status === "skipped" ? `[${skipKindOf(c)}] ${c.reason ?? "skipped"}` : undefined,
    output: out,
  };
}

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
  const families = [...new Set(r.checks.map((c) => family(c.id)))];
  const suites: JunitSuite[] = families.map((f) => ({
    name: `conformance.${f}`,
    timestamp: r.startedAt,
    cases: r.checks.filter((c) => family(c.id) === f).map(testcase),
  }));
  const skips = r.skips ?? [];
  if (skips.length > 0) suites.push(skipSuite(r, skips));
  return writeJunit({
    name: `plumbline conformance (${r.target}, ${r.profile})`,
    seconds: r.durationMs / 1000,
    suites,
  });
}
