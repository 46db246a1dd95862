// The gate's one JUnit file (issue 17): one <testsuite> per stage, so a CI page shows conformance checks, fuzz
// properties and load thresholds side by side. Built from the stages' typed results, never from their text.
import type { StageOutcome } from "./gate-types.ts";

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string);

export interface JunitCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: string;
  skipped?: string;
  /** what the case found, for people (system-out) */
  output?: string;
}

function suite(stage: StageOutcome): string {
  const cases = stage.cases;
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const body = cases
    .map((c) => {
      const inner =
        c.failure !== undefined
          ? `<failure message="${esc(c.failure.split("\n")[0].slice(0, 300))}">${esc(c.failure)}</failure>`
          : c.skipped !== undefined
            ? `<skipped message="${esc(c.skipped)}"/>`
            : "";
      const out = c.output ? `<system-out>${esc(c.output)}</system-out>` : "";
      return `    <testcase name="${esc(c.name)}" classname="${esc(c.classname)}" time="${c.seconds.toFixed(3)}">${inner}${out}</testcase>`;
    })
    .join("\n");
  const error = stage.error ? 1 : 0;
  const errorCase = stage.error
    ? `\n    <testcase name="${esc(stage.stage)} could run" classname="gate.${esc(stage.stage)}" time="0"><error message="${esc(stage.error)}"/></testcase>`
    : "";
  return `  <testsuite name="${esc(stage.stage)}" tests="${cases.length + error}" failures="${failures}" errors="${error}" skipped="${skipped}" time="${stage.seconds.toFixed(3)}">\n${body}${errorCase}\n  </testsuite>`;
}

export function gateJunit(stages: StageOutcome[]): string {
  const tests = stages.reduce((n, s) => n + s.cases.length + (s.error ? 1 : 0), 0);
  const failures = stages.reduce((n, s) => n + s.cases.filter((c) => c.failure !== undefined).length, 0);
  const errors = stages.filter((s) => s.error).length;
  const time = stages.reduce((t, s) => t + s.seconds, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="plumbline gate" tests="${tests}" failures="${failures}" errors="${errors}" time="${time.toFixed(3)}">\n${stages.map(suite).join("\n")}\n</testsuites>\n`;
}
