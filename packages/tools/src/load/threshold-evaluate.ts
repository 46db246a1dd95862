// Evaluates threshold expressions against a run's figures. A key the scenario never exercised is skipped
// (one committed file serves every scenario); a key that was exercised but has nothing to measure fails.
import { plural, wasWere } from "@plumbline-kit/contract/report/plural";
import { latencyAt } from "./latency-summary.ts";
import { samplesFor } from "./rate-limits.ts";
import { compare, metricLabel, type Threshold } from "./threshold-expression.ts";
import type { ThresholdOutcome } from "./types.ts";

export interface KeyFigures {
  errorRate: number;
  rps: number;
  count: number;
}

export interface MetricSource {
  /** ascending latencies (ms); undefined when the key saw no traffic */
  sorted(key: string): Float64Array | undefined;
  figures(key: string): KeyFigures | undefined;
}

export interface EvaluateOptions {
  /** the open loop's requested rate: an `rps` bound above it cannot be met by construction */
  rate: number | null;
  /**
   * the run was paced to the target's limits (issue 27): an `rps` bound above that rate, or a percentile of fewer
   * answers than it needs (p(99) of fewer than 100 is the slowest answer), cannot be judged at that rate
   */
  limitedRate?: number | null;
}

const round = (n: number) => Math.round(n * 100) / 100;

function measure(t: Threshold, key: string, source: MetricSource): number | null {
  const m = t.metric;
  if (m.kind === "latency") {
    const sorted = source.sorted(key);
    if (!sorted?.length) return null;
    if (m.stat === "p") return latencyAt(sorted, m.p);
    if (m.stat === "min") return sorted[0];
    if (m.stat === "max") return sorted[sorted.length - 1];
    if (m.stat === "med") return latencyAt(sorted, 50);
    let sum = 0;
    for (const v of sorted) sum += v;
    return round(sum / sorted.length);
  }
  const f = source.figures(key) as KeyFigures;
  if (m.kind === "error_rate") return f.errorRate;
  return m.kind === "rps" ? f.rps : f.count;
}

export function evaluateThresholds(
  entries: Array<{ key: string; threshold: Threshold }>,
  source: MetricSource,
  options: EvaluateOptions,
): ThresholdOutcome[] {
  return entries.map(({ key, threshold: t }) => {
    const base = { key, expression: t.text };
    if (!source.figures(key))
      return { ...base, actual: null, status: "skipped", note: "the scenario does not exercise it" };
    const limited = options.limitedRate ?? null;
    const atRate = `cannot be judged at the rate the target's limits allow (${round(limited ?? 0)} requests/s)`;
    if (t.metric.kind === "rps" && limited !== null && t.comparator.startsWith(">") && t.value >= limited)
      return { ...base, actual: null, status: "skipped", note: atRate };
    if (t.metric.kind === "rps" && options.rate !== null && t.comparator.startsWith(">") && t.value >= options.rate)
      return { ...base, actual: null, status: "skipped", note: `bound above the requested --rate ${options.rate}` };
    if (limited !== null && t.metric.kind === "latency" && t.metric.stat === "p") {
      const n = source.sorted(key)?.length ?? 0;
      const need = samplesFor(t.metric.p);
      if (n > 0 && n < need)
        return {
          ...base,
          actual: null,
          status: "skipped",
          note: `${atRate}: p(${t.metric.p}) needs ${plural(need, "answer")}, ${n} ${wasWere(n)} measured`,
        };
    }
    const actual = measure(t, key, source);
    if (actual === null)
      return { ...base, actual, status: "failed", note: `no ${metricLabel(t.metric)} to measure: nothing answered` };
    return { ...base, actual, status: compare(actual, t.comparator, t.value) ? "passed" : "failed" };
  });
}

/** The measured value with its unit: "41.2 ms", "0.05%", "4500". */
export function formatActual(o: ThresholdOutcome): string {
  if (o.actual === null) return "–";
  if (o.expression.startsWith("error_rate")) return `${round(o.actual * 100)}%`;
  return /^(avg|min|max|med|p\()/.test(o.expression) ? `${round(o.actual)} ms` : String(round(o.actual));
}

/** "search: p(99) < 30ms (actual 41.2 ms)": how a broken threshold is named. */
export function describeOutcome(o: ThresholdOutcome): string {
  return `${o.key}: ${o.expression} (${o.actual === null ? (o.note ?? "no value") : `actual ${formatActual(o)}`})`;
}
