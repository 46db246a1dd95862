// Parallel workers for one property. A request spends most of its time waiting on the target, so several
// workers keep both the fuzzer and the target busy; each has its own seed (seed + index) and, on a target with
// /__mock, its own funded account, so balance checks never race. The first failure stops the other workers.
import type { CheckOptions, PropertyOutcome } from "./check-property.ts";

export interface WorkerPlan {
  workers: number;
  seed: number;
  timeMs?: number;
  /** total runs, split across the workers */
  runs?: number;
  shrinkMs?: number;
}

/** Runs `work` once per worker; returns the first failing outcome (lowest index) or the first passing one. */
export async function runWorkers<T>(
  plan: WorkerPlan,
  work: (options: CheckOptions, index: number) => Promise<PropertyOutcome<T>>,
): Promise<PropertyOutcome<T>> {
  let stop = false;
  const perWorkerRuns = plan.runs === undefined ? undefined : Math.max(1, Math.ceil(plan.runs / plan.workers));
  const outcomes = await Promise.all(
    Array.from({ length: plan.workers }, async (_, i) => {
      const out = await work(
        {
          seed: plan.seed + i,
          timeMs: plan.timeMs,
          runs: perWorkerRuns,
          shrinkMs: plan.shrinkMs,
          stopped: () => stop,
        },
        i,
      );
      if (!out.passed) stop = true;
      return out;
    }),
  );
  const failed = outcomes.find((o) => !o.passed);
  const first = failed ?? outcomes[0];
  return { ...first, runs: outcomes.reduce((n, o) => n + o.runs, 0) };
}
