// --baseline: this run against an earlier load.json of the same scenario and mode. A latency that grew, or a
// throughput that fell, by more than the set percentage is a regression. Below `minDeltaMs` a latency change
// is noise (on loopback 1 ms → 2 ms is +100%).
import { readFileSync } from "node:fs";
import type { BaselineComparison, LatencySummary, LoadReport, RegressionOutcome } from "./types.ts";

export type BaselineRead = { ok: true; report: LoadReport } | { ok: false; error: string };

export function readBaseline(path: string): BaselineRead {
  try {
    const report = JSON.parse(readFileSync(path, "utf8")) as LoadReport;
    if (report?.tool !== "plumbline load" || !report.overall)
      return { ok: false, error: `--baseline ${path} is not a load.json of plumbline load` };
    return { ok: true, report };
  } catch (err) {
    return { ok: false, error: `--baseline ${path}: ${(err as Error).message}` };
  }
}

/** Why two runs cannot be compared, or null. */
export function incomparable(baseline: LoadReport, current: Pick<LoadReport, "scenario" | "mode">): string | null {
  if (baseline.scenario.name !== current.scenario.name)
    return `the baseline ran scenario "${baseline.scenario.name}", this run "${current.scenario.name}"`;
  if (baseline.mode !== current.mode)
    return `the baseline ran a ${baseline.mode} loop, this run an ${current.mode} loop`;
  return null;
}

const LATENCY_METRICS: Array<keyof LatencySummary> = ["med", "p95", "p99"];

export function compareWithBaseline(
  baseline: LoadReport,
  current: LoadReport,
  file: string,
  tolerance: { maxRegressionPercent: number; minDeltaMs: number },
): BaselineComparison {
  const limit = tolerance.maxRegressionPercent / 100;
  const outcomes: RegressionOutcome[] = [];
  const add = (key: string, metric: string, base: number, now: number, higherIsWorse: boolean) => {
    if (!(base > 0)) return;
    const change = (now - base) / base;
    const worse = higherIsWorse ? change > limit && now - base > tolerance.minDeltaMs : -change > limit;
    outcomes.push({
      key,
      metric,
      baseline: base,
      current: now,
      changePercent: Math.round(change * 1000) / 10,
      regressed: worse,
    });
  };
  const latencies = (key: string, base: LatencySummary | null, now: LatencySummary | null) => {
    if (!base || !now) return;
    for (const m of LATENCY_METRICS) add(key, m, base[m], now[m], true);
  };
  latencies("overall", baseline.overall.latency, current.overall.latency);
  add("overall", "rps", baseline.overall.rps, current.overall.rps, false);
  for (const [id, now] of Object.entries(current.operations)) {
    const base = baseline.operations[id];
    if (!base) continue;
    latencies(id, base.latency, now.latency);
    add(id, "rps", base.rps, now.rps, false);
  }
  for (const [name, now] of Object.entries(current.flows)) {
    const base = baseline.flows?.[name];
    if (base) latencies(`flow:${name}`, base.timeToCompleted, now.timeToCompleted);
  }
  return { file, ...tolerance, outcomes, pass: outcomes.every((o) => !o.regressed) };
}
