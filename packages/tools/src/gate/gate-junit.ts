// The gate's one JUnit file (issue 17): one <testsuite> per stage, so a CI page shows conformance checks, fuzz
// properties and load thresholds side by side. Built from the stages' records (the one report record of every
// client, contract/src/report/check-record.ts), never from their text, by the shared JUnit writer (which drops the
// characters XML forbids: a control character in a message no longer makes the file unparseable).
import { junitCase } from "@plumbline-kit/contract/report/check-record";
import { junitXml } from "@plumbline-kit/contract/report/junit";
import type { StageOutcome } from "./gate-types.ts";

export function gateJunit(stages: StageOutcome[]): string {
  return junitXml({
    name: "plumbline gate",
    suites: stages.map((stage) => ({
      name: stage.stage,
      seconds: stage.seconds,
      cases: [
        ...stage.cases.map(junitCase),
        ...(stage.error
          ? [{ name: `${stage.stage} could run`, classname: `gate.${stage.stage}`, error: { message: stage.error } }]
          : []),
      ],
    })),
  });
}
