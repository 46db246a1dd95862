// One fuzz run against the shared reference for a describe block, as the reference suites make it: the fixture
// site's URLs, the reference's known issues waived, report and corpus in a folder of its own, removed afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type FuzzOptions, type FuzzResult, runFuzz } from "../../run-fuzz.ts";
import { REFERENCE_KNOWN_ISSUES } from "../reference-known-issues.ts";
import { REFERENCE_KEY } from "../reference-process.ts";
import type { SharedReference } from "./shared-reference.ts";

export interface ReferenceFuzzRun {
  /** set once the run is over (beforeAll) */
  result: FuzzResult;
  /** the run's progress lines, shown when an assertion fails */
  lines: string[];
}

type RunOptions = Pick<FuzzOptions, "seed" | "runs" | "operations" | "paymentKey">;

/** Registers the run in the enclosing describe block's hooks; read `result` from the tests. */
export function referenceFuzzRun(shared: SharedReference, prefix: string, options: RunOptions): ReferenceFuzzRun {
  const run = { lines: [] as string[] } as ReferenceFuzzRun;
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    run.result = await runFuzz({
      ...options,
      target: shared.reference.url,
      apiKey: REFERENCE_KEY,
      fixtureUrl: shared.site.url,
      reportDir: join(dir, "report"),
      corpusDir: join(dir, "corpus"),
      waivers: REFERENCE_KNOWN_ISSUES,
      // hang detectors, not speed budgets (issue 25): a real fetch or a Chromium screenshot on a machine running
      // other test files beside this one can take many times its time alone
      requestTimeoutMs: 30_000,
      onProgress: (l) => run.lines.push(l),
    });
  }, 300_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return run;
}
