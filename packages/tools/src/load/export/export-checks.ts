// plumbline's thresholds (k6's vocabulary: `p(99) < 50ms`, `error_rate < 0.1%`, `rps > 800`, `count >= 1`) as the
// engines' own checks: Artillery `ensure` conditions over the metrics the exported runtime records, and k6
// `thresholds`. They judge what `plumbline load` judges (threshold-evaluate.ts):
// - a key the scenario does not exercise is dropped (plumbline skips it); an exercised key with no attempt in the
//   run passes (skipped), one with attempts and nothing to measure fails;
// - an `rps` lower bound at or above the arrival rate is dropped (an open loop cannot exceed its own rate);
// - when the run is paced to the target's limits, a percentile of fewer answers than it needs (p(95) 100, p(99)
//   500) is not judged: Artillery checks that at run time, k6 cannot (the bound is dropped at export when the
//   paced rate cannot give enough answers).
// What an engine cannot express is said, per threshold, never silently changed.
import { samplesFor } from "../rate-limits.ts";
import type { Threshold } from "../threshold-expression.ts";
import type { ExportPlan } from "./export-plan.ts";
import { artilleryBase, FLOW_TIME, K6, RESPONSE_TIME } from "./metric-names.ts";

export interface TranslatedCheck {
  key: string;
  expression: string;
  /** the `ensure` condition, or null when Artillery cannot express it (see note) */
  artillery: string | null;
  /** the k6 threshold: metric (with tags) and expression, or null (see note) */
  k6: { metric: string; expression: string } | null;
  note?: string;
}

export interface DroppedCheck {
  key: string;
  expression: string;
  reason: string;
}

export interface ExportChecks {
  checks: TranslatedCheck[];
  dropped: DroppedCheck[];
}

/** The percentiles an Artillery summary carries and `ensure` can name (p999 contains p99's name: ensure confuses them). */
const ARTILLERY_PERCENTILES = new Set([50, 75, 90, 95, 99]);
const ARTILLERY_STAT = { avg: "mean", med: "median", min: "min", max: "max" } as const;

const num = (n: number) => String(Math.round(n * 1e6) / 1e6);

function artilleryLatencyName(t: Threshold): string | null {
  const m = t.metric;
  if (m.kind !== "latency") return null;
  if (m.stat !== "p") return ARTILLERY_STAT[m.stat];
  return ARTILLERY_PERCENTILES.has(m.p) ? `p${m.p}` : null;
}

/** The `ensure` condition of one threshold, or the reason it has none. */
function artilleryCondition(
  key: string,
  t: Threshold,
  plan: ExportPlan,
  paced: boolean,
): { ok: true; condition: string } | { ok: false; reason: string } {
  const base = artilleryBase(key);
  const flow = key.startsWith("flow:");
  const attempts = flow ? `${base}.started` : `${base}.answered + ${base}.failed`;
  const answered = flow ? `${base}.completed` : `${base}.answered`;
  const seconds = plan.phases.durationSeconds;
  const cmp = `${t.comparator} ${num(t.value)}`;
  let measure: string;
  const m = t.metric;
  if (m.kind === "latency") {
    const stat = artilleryLatencyName(t);
    if (!stat)
      return {
        ok: false,
        reason: `Artillery's summaries give p50, p75, p90, p95, p99, mean, median, min and max, not ${t.text.split(/[<>=]/)[0].trim()}`,
      };
    const series = `${base}.${flow ? FLOW_TIME : RESPONSE_TIME}`;
    measure = `${series}.${stat} ${cmp}`;
    if (paced && m.stat === "p") {
      const need = samplesFor(m.p);
      measure = `(${series}.count > 0 and ${series}.count < ${need}) or ${measure}`;
    }
  } else if (m.kind === "error_rate") {
    const errors = flow ? `${base}.started - ${base}.completed` : `${base}.unexpected + ${base}.failed`;
    measure = `(${errors}) / (${attempts}) ${cmp}`;
  } else if (m.kind === "rps") measure = `${answered} / ${seconds} ${cmp}`;
  else measure = `${answered} ${cmp}`;
  return { ok: true, condition: `${attempts} == 0 or ${measure}` };
}

function k6Threshold(key: string, t: Threshold, seconds: number): { metric: string; expression: string } {
  const flow = key.startsWith("flow:");
  const tags = key === "overall" || flow ? "window:measured" : `op:${key},window:measured`;
  const m = t.metric;
  const value = num(t.value);
  if (m.kind === "latency") {
    const stat = m.stat === "p" ? `p(${m.p})` : m.stat;
    return { metric: `${flow ? K6.flowTime : K6.latency}{${tags}}`, expression: `${stat}${t.comparator}${value}` };
  }
  if (m.kind === "error_rate")
    return { metric: `${flow ? K6.flowErrors : K6.errors}{${tags}}`, expression: `rate${t.comparator}${value}` };
  const counter = `${flow ? K6.flowCompleted : K6.answers}{${tags}}`;
  // k6's rate of a counter divides by the whole test, warm-up included: the measured window's count instead
  if (m.kind === "rps") return { metric: counter, expression: `count${t.comparator}${num(t.value * seconds)}` };
  return { metric: counter, expression: `count${t.comparator}${value}` };
}

/** The share of arrivals that exercise a key (1 for overall and flows). */
function share(plan: ExportPlan, key: string): number {
  if (key === "overall" || key.startsWith("flow:") || plan.flow) return 1;
  const total = plan.templates.reduce((s, t) => s + t.weight, 0);
  return plan.templates.filter((t) => t.operationId === key).reduce((s, t) => s + t.weight, 0) / total;
}

export function translateChecks(entries: Array<{ key: string; threshold: Threshold }>, plan: ExportPlan): ExportChecks {
  const checks: TranslatedCheck[] = [];
  const dropped: DroppedCheck[] = [];
  const rate = plan.phases.rate;
  const seconds = plan.phases.durationSeconds;
  const paced = plan.rateLimits.allowedRate !== null && plan.rateLimits.setting !== "ignore";
  for (const { key, threshold: t } of entries) {
    const base = { key, expression: t.text };
    if (!plan.keys.includes(key)) {
      dropped.push({ ...base, reason: "the scenario does not exercise it" });
      continue;
    }
    if (t.metric.kind === "rps" && t.comparator.startsWith(">") && t.value >= rate) {
      dropped.push({ ...base, reason: `a throughput bound at or above the arrival rate (${rate}/s) cannot be met` });
      continue;
    }
    const a = artilleryCondition(key, t, plan, paced);
    let k6: TranslatedCheck["k6"] = k6Threshold(key, t, seconds);
    let k6Note: string | undefined;
    if (paced && t.metric.kind === "latency" && t.metric.stat === "p") {
      const expected = Math.floor(rate * seconds * share(plan, key));
      const need = samplesFor(t.metric.p);
      if (expected < need) {
        k6 = null;
        k6Note = `k6: p(${t.metric.p}) needs ${need} answers and the paced rate gives about ${expected} (k6 cannot skip a threshold by its sample count)`;
      }
    }
    const notes = [a.ok ? null : `Artillery: ${a.reason}`, k6Note].filter((n): n is string => !!n);
    checks.push({
      ...base,
      artillery: a.ok ? a.condition : null,
      k6,
      ...(notes.length ? { note: notes.join("; ") } : {}),
    });
  }
  return { checks, dropped };
}
