// Proof that the fuzzer bites (issue 6 "Quality bars"): in front of the mock, a proxy injects one fault at a time
// (fault-proxy.ts); a seeded run must fail within a number of cases, naming the right property and check, with
// a shrunk example that shows the fault.
import { describe, expect, it } from "vitest";
import type { FuzzCase } from "../../fuzz-case.ts";
import type { FailureReport } from "../../report/fuzz-report.ts";
import type { PropertyName } from "../../repro/corpus-entry.ts";
import { runFuzz } from "../../run-fuzz.ts";
import { type Fault, startFaultProxy } from "../fault-proxy.ts";
import { MOCK_KNOWN_ISSUES } from "../mock-known-issues.ts";
import { MOCK_KEY } from "../mock-process.ts";
import type { SharedMock } from "./shared-mock.ts";

/** cases (model: sequences) a seeded run may take to find the fault: counted, not timed (issue 25) */
const RUNS = 1000;
const MODEL_RUNS = 100;

interface Expected {
  fault: Fault;
  property: PropertyName;
  check: string;
  /** what the shrunk case (or command sequence) must show */
  shows: (f: FailureReport) => boolean;
}

const entries = (c: FuzzCase) =>
  (Array.isArray(c.request.body) ? c.request.body : [c.request.body]) as Array<Record<string, unknown>>;

const CASES: Expected[] = [
  {
    fault: "accept-out-of-range",
    property: "invalid-input",
    check: "negative-rejected",
    shows: ({ case: c }) =>
      /max_results$/.test(c?.violation?.field ?? "") && /minimum|maximum/.test(c?.violation?.keyword ?? ""),
  },
  {
    fault: "accept-unknown-properties",
    property: "invalid-input",
    check: "negative-rejected",
    shows: ({ case: c }) => c?.violation?.keyword === "additionalProperties",
  },
  {
    fault: "charge-rejected",
    property: "invalid-input",
    check: "rejected-not-charged",
    shows: ({ case: c }) => !!c?.violation,
  },
  {
    fault: "miscount-batch-summary",
    property: "valid-input",
    check: "batch-summary",
    shows: ({ case: c }) => !!c && Array.isArray(c.request.body) && entries(c).length <= 2,
  },
  {
    fault: "deepcrawl-stalls",
    property: "stateful-model",
    check: "model-task-state",
    // shrunk to: start a task, move the clock past its steps (1000 + 1000 + 3000 ms), see it
    shows: ({ sequence }) =>
      !!sequence &&
      sequence.commands.some((c) => c.kind === "call" && c.operationId === "deepcrawl") &&
      sequence.commands.reduce((ms, c) => ms + (c.kind === "advance" ? c.ms : 0), 0) >= 5000 &&
      sequence.commands.length <= 6,
  },
  {
    fault: "drop-connection",
    property: "valid-input",
    check: "no-dropped-connection",
    shows: ({ case: c }) => c?.operationId === "sitemap" && (c.request.body as { type?: string }).type === "all",
  },
];

export function bitesSuite(shared: SharedMock): void {
  describe("the fuzzer catches deliberately faulty variants of the mock", () => {
    for (const x of CASES) {
      it.concurrent(`${x.fault}: ${x.property} fails with [${x.check}] and a shrunk example`, async () => {
        const runs = x.property === "stateful-model" ? MODEL_RUNS : RUNS;
        const proxy = await startFaultProxy(shared.mock.url, x.fault, shared.contract);
        try {
          const result = await runFuzz({
            target: proxy.url,
            apiKey: MOCK_KEY,
            seed: 6,
            // the model property runs a tenth of `runs` as sequences
            runs: x.property === "stateful-model" ? runs * 10 : runs,
            // a cap, not a target: shrinking ends long before it unless the machine is starved
            shrinkSeconds: 10,
            properties: [x.property],
            waivers: MOCK_KNOWN_ISSUES,
            reportDir: null,
            corpusDir: null,
          });
          expect(result.exitCode).toBe(1);
          const p = result.report.properties[0];
          const failure = p.failure;
          expect(failure?.failures.map((f) => f.check)).toContain(x.check);
          const f = failure as FailureReport;
          const shrunk = f.case ? (f.case.request.body ?? f.case.request.rawBody) : f.sequence;
          expect(x.shows(f), JSON.stringify(shrunk)).toBe(true);
          // shrunk: a few members or commands, not the sprawling first failure
          expect(JSON.stringify(shrunk).length).toBeLessThan(400);
          expect(f.curl[0]).toMatch(/^curl /);
          const at = `found after ${p.secondsToFailure?.toFixed(2)} s, ${p.cases} cases`;
          console.log(`${x.fault}: ${at}; shrunk to ${JSON.stringify(shrunk)}`);
        } finally {
          await proxy.close();
        }
      }, 60_000);
    }
  });
}
