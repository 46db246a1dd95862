// The run's report as typed records (style: "reports are rendered from typed records, never from parsed text"),
// written as fuzz.json (with `records`: the one report record of every client, fuzz-records.ts) and a
// self-contained report.html in reports/fuzz/<timestamp>/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckFailure } from "../checks/check-failure.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import type { CommandSpec } from "../model/model-command.ts";
import type { PropertyName } from "../repro/corpus-entry.ts";
import { fuzzRecords } from "./fuzz-records.ts";
import { renderReportHtml } from "./report-html.ts";

export interface FailureReport {
  seed: number;
  path: string | null;
  shrinks: number;
  failures: CheckFailure[];
  /** an error of the run itself (not a check), when there is one */
  error: string | null;
  case: FuzzCase | null;
  sequence: { credits: number; commands: CommandSpec[] } | null;
  curl: string[];
  corpusFile: string | null;
}

export interface PropertyReport {
  property: PropertyName;
  passed: boolean;
  workers: number;
  /** cases (model: command sequences) executed, shrinking included */
  cases: number;
  /** model only: commands executed */
  commands?: number;
  seconds: number;
  /** seconds from the start of the property to its first failing case (shrinking comes after) */
  secondsToFailure: number | null;
  casesPerSecond: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  throttled: number;
  waived: Record<string, number>;
  failure: FailureReport | null;
}

export interface FuzzReport {
  tool: "plumbline fuzz";
  startedAt: string;
  finishedAt: string;
  target: { url: string; version: string | null; admin: boolean; clock: string | null };
  /** the fixture site valid bodies named (--fixture-url), as the fuzzer read it */
  fixture: { url: string; pages: string[]; failing: string[] } | null;
  seed: number;
  budget: { timeSeconds: number | null; runs: number | null };
  only: string[] | null;
  exitCode: 0 | 1 | 2;
  error: string | null;
  properties: PropertyReport[];
  health: { passed: boolean; message: string } | null;
  /** the input properties' cases (valid and invalid input), the throughput figure */
  totals: { cases: number; seconds: number; casesPerSecond: number };
  waivers: Array<{ id: string; description: string; location: string; count: number }>;
  replay: Array<{ file: string; id: string; passed: boolean; failures: CheckFailure[]; waived: string | null }>;
}

export function writeReport(dir: string, report: FuzzReport): { json: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, "fuzz.json");
  const html = join(dir, "report.html");
  writeFileSync(json, `${JSON.stringify({ ...report, records: fuzzRecords(report) }, null, 2)}\n`);
  writeFileSync(html, renderReportHtml(report));
  return { json, html };
}
