// One property of a run, end to end: run it, and either log its throughput or turn its failure into what
// reproduces it (printed, and a replay file in the corpus folder).

import type { PropertyReport } from "../report/fuzz-report.ts";
import type { PropertyName } from "../repro/corpus-entry.ts";
import { describeFailure, failureRecord } from "../repro/failure-record.ts";
import { type RunContext, runInputProperty, runModelProperty } from "./property-runs.ts";
import type { WorkerPlan } from "./run-workers.ts";

export async function runPropertyStep(
  ctx: RunContext,
  property: PropertyName,
  plan: WorkerPlan,
  corpusDir: string | null,
  log: (line: string) => void,
): Promise<PropertyReport> {
  const { report, outcome } =
    property === "stateful-model" ? await runModelProperty(ctx, plan) : await runInputProperty(ctx, property, plan);
  if (!outcome.passed) {
    const paths = (id: string) => ctx.contract.operation(id).path;
    report.failure = failureRecord(property, outcome, { baseUrl: ctx.target.baseUrl, corpusDir, paths });
    for (const line of describeFailure(property, report.failure)) log(line);
    return report;
  }
  const what = report.commands === undefined ? "cases" : `runs (${report.commands} commands)`;
  const waived = Object.keys(report.waived).length ? `, waived ${JSON.stringify(report.waived)}` : "";
  log(`✓ ${property}: ${report.cases} ${what}, ${report.casesPerSecond.toFixed(0)}/s${waived}`);
  return report;
}
