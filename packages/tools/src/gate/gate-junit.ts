// The gate's one JUnit file (issue 17): one <testsuite> per stage, so a CI page shows conformance checks, fuzz
// properties and load thresholds side by side. Built from the stages' typed results, never from their text, by the
// shared JUnit writer (which drops the characters XML forbids: a control character in a message no longer makes
// the file unparseable).
import { junitXml } from "@plumbline-kit/contract/report/junit";
import type { StageOutcome } from "./gate-types.ts";

export interface JunitCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: string;
  skipped?: string;
  /** what the case found, for people (system-out) */
  output?: string;
}

export function gateJunit(stages: StageOutcome[]): string {
  return junitXml({
    name: "plumbline gate",
    suites: stages.map((stage) => ({
      name: stage.stage,
      seconds: stage.seconds,
      cases: [
        ...stage.cases.map((c) => ({
          name: c.name,
          classname: c.classname,
          seconds: c.seconds,
          failure:
            c.failure === undefined ? undefined : { message: c.failure.split("\n")[0].slice(0, 300), text: c.failure },
          skipped: c.skipped,
          output: c.output,
        })),
        ...(stage.error
          ? [{ name: `${stage.stage} could run`, classname: `gate.${stage.stage}`, error: { message: stage.error } }]
          : []),
      ],
    })),
  });
}
