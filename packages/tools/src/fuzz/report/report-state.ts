// The report of a run while it is built, and its end: totals, the waivers that fired, the files written.
import { join } from "node:path";
import { plural } from "@plumbline-kit/contract/report/plural";
import type { Waiver } from "../checks/waivers.ts";
import { type FuzzReport, writeReport } from "./fuzz-report.ts";

export interface ReportState {
  exitCode: 0 | 1 | 2;
  report: FuzzReport;
  /** the report files, when written */
  files: { json: string; html: string } | null;
}

interface ReportOptions {
  target: string;
  only?: string[];
  runs?: number;
  reportDir?: string | null;
  waivers?: Waiver[];
}

export function emptyReport(o: ReportOptions, seed: number, timeSeconds: number | null): ReportState {
  const report: FuzzReport = {
    tool: "plumbline fuzz",
    startedAt: new Date().toISOString(),
    finishedAt: "",
    target: { url: o.target, version: null, admin: false, clock: null },
    fixture: null,
    seed,
    budget: { timeSeconds, runs: o.runs ?? null },
    only: o.only ?? null,
    exitCode: 2,
    error: null,
    properties: [],
    health: null,
    totals: { cases: 0, seconds: 0, casesPerSecond: 0 },
    waivers: [],
    replay: [],
  };
  return { exitCode: 2, report, files: null };
}

export function finishReport(
  state: ReportState,
  o: ReportOptions,
  exitCode: 0 | 1 | 2,
  error: string | null,
  log: (line: string) => void,
): ReportState {
  const r = state.report;
  r.exitCode = exitCode;
  r.error = error;
  r.finishedAt = new Date().toISOString();
  // throughput counts the input cases (one request and one balance read each); a model run is a whole sequence
  const inputs = r.properties.filter((p) => p.property !== "stateful-model");
  const cases = inputs.reduce((n, p) => n + p.cases, 0);
  const seconds = inputs.reduce((n, p) => n + p.seconds, 0);
  r.totals = { cases, seconds, casesPerSecond: seconds > 0 ? cases / seconds : 0 };
  const fired: Record<string, number> = {};
  for (const p of r.properties) for (const [k, v] of Object.entries(p.waived)) fired[k] = (fired[k] ?? 0) + v;
  for (const x of r.replay) if (x.waived) fired[x.waived] = (fired[x.waived] ?? 0) + 1;
  r.waivers = (o.waivers ?? [])
    .filter((w) => fired[w.id])
    .map((w) => ({ id: w.id, description: w.description, location: w.location, count: fired[w.id] }));
  // the reason is the report's error, printed once by the caller (the CLI on stderr, the gate in its stage line)
  if (r.properties.length)
    log(`${plural(cases, "input case")} in ${seconds.toFixed(1)} s: ${r.totals.casesPerSecond.toFixed(0)} cases/s`);
  const dir = o.reportDir === undefined ? join("reports", "fuzz", r.startedAt.replace(/[:.]/g, "-")) : o.reportDir;
  if (dir !== null) {
    state.files = writeReport(dir, r);
    log(`report: ${state.files.html}`);
  }
  state.exitCode = exitCode;
  return state;
}
