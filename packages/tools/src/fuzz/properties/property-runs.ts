// Each property of a run, from plan to PropertyReport: the input properties on parallel workers, the stateful
// model on one (the manual clock it moves is shared by every task of the target).

import type { Contract } from "@plumbline-kit/contract";
import fc from "fast-check";
import type { OperationCases } from "../arbitraries/operation-cases.ts";
import type { CaseEnv } from "../checks/run-case.ts";
import type { Waiver } from "../checks/waivers.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import type { HttpClient } from "../http/http-client.ts";
import { createAccount } from "../http/mock-admin.ts";
import type { TargetInfo } from "../http/target-probe.ts";
import { type ModelInput, type ModelStats, modelProperty } from "../model/model-property.ts";
import type { PropertyReport } from "../report/fuzz-report.ts";
import type { PropertyName } from "../repro/corpus-entry.ts";
import { type CaseStats, caseProperty, emptyStats, mergeStats } from "./case-property.ts";
import { checkProperty, type PropertyOutcome } from "./check-property.ts";
import { InFlight } from "./in-flight.ts";
import { runWorkers, type WorkerPlan } from "./run-workers.ts";

export interface RunContext {
  contract: Contract;
  client: HttpClient;
  target: TargetInfo;
  apiKey: string;
  cases: OperationCases[];
  waivers: readonly Waiver[];
  /** the run's --operations list (the model drives some operations only when named, model-property.ts) */
  only?: readonly string[];
  /** the target's test payment key: the stateful model pays for calls too */
  paymentKey?: string;
  /** the live counters of the running workers, summed for progress lines */
  progress: Array<{ readonly cases: number }>;
  /** credits the input properties may still spend of the given key (--max-credits); absent: no cap */
  budget?: { remaining: number };
}

/** Worker accounts on a target with /__mock: enough credits that valid input never meets 402 by accident. */
const WORKER_CREDITS = 1_000_000_000;

function report(property: PropertyName, passed: boolean, workers: number, started: number, stats: CaseStats) {
  const seconds = (performance.now() - started) / 1000;
  return {
    property,
    passed,
    workers,
    cases: stats.cases,
    seconds,
    secondsToFailure: stats.firstFailureAt === null ? null : (stats.firstFailureAt - started) / 1000,
    casesPerSecond: seconds > 0 ? stats.cases / seconds : 0,
    byOperation: stats.byOperation,
    byStatus: stats.byStatus,
    throttled: stats.throttled,
    waived: stats.waived,
    failure: null,
  } satisfies PropertyReport;
}

export async function runInputProperty(
  ctx: RunContext,
  property: "valid-input" | "invalid-input",
  plan: WorkerPlan,
): Promise<{ report: PropertyReport; outcome: PropertyOutcome<FuzzCase> }> {
  const arbs = ctx.cases.map((c) => (property === "valid-input" ? c.valid : c.invalid)).filter((a) => a !== null);
  const cases = fc.oneof(...arbs);
  const total = emptyStats();
  const workers = ctx.target.admin ? plan.workers : 1;
  const started = performance.now();
  const outcome = await runWorkers({ ...plan, workers }, async (options) => {
    let key = ctx.apiKey;
    if (ctx.target.admin) {
      const account = await createAccount(ctx.client, WORKER_CREDITS);
      if (account.ok) key = account.value;
    }
    const env: CaseEnv = {
      contract: ctx.contract,
      client: ctx.client,
      key,
      balance: null,
      fetches: !ctx.target.admin,
      // the cap is on the given key: a worker's own mock account spends nothing of it
      budget: key === ctx.apiKey ? ctx.budget : undefined,
    };
    const stats = emptyStats();
    ctx.progress.push(stats);
    const inFlight = new InFlight();
    const out = await checkProperty(property, caseProperty(cases, env, stats, ctx.waivers, inFlight), {
      ...options,
      settle: () => inFlight.settle(),
    });
    mergeStats(total, stats);
    return out;
  });
  return { report: report(property, outcome.passed, workers, started, total), outcome };
}

export async function runModelProperty(
  ctx: RunContext,
  plan: WorkerPlan,
): Promise<{ report: PropertyReport; outcome: PropertyOutcome<ModelInput> }> {
  const stats: ModelStats = { runs: 0, commands: 0, waived: {}, firstFailureAt: null };
  const started = performance.now();
  ctx.progress.push({
    get cases() {
      return stats.runs;
    },
  });
  const setup = { ...ctx, waivers: ctx.waivers };
  const inFlight = new InFlight();
  const outcome = await checkProperty("stateful-model", modelProperty(setup, stats, inFlight), {
    seed: plan.seed,
    timeMs: plan.timeMs,
    runs: plan.runs,
    shrinkMs: plan.shrinkMs,
    settle: () => inFlight.settle(),
  });
  const base = emptyStats();
  base.cases = stats.runs;
  base.waived = stats.waived;
  base.firstFailureAt = stats.firstFailureAt;
  return {
    report: { ...report("stateful-model", outcome.passed, 1, started, base), commands: stats.commands },
    outcome,
  };
}
