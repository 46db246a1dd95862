// An export plan's k6 `options`: one arrival-rate scenario (the warm-up ramp, then the measured rate; iterations are
// requests of the weighted mix, or whole deepcrawl flows) and the thresholds translated by export-checks.ts.
import type { ExportChecks } from "./export-checks.ts";
import type { ExportPlan } from "./export-plan.ts";

export interface K6Options {
  scenarios: Record<string, Record<string, unknown>>;
  thresholds: Record<string, string[]>;
  summaryTrendStats: string[];
}

/** k6 arrival rates are whole numbers per time unit: a fractional rate per second becomes a rate per minute. */
function perUnit(rate: number): { timeUnit: string; scale: number } {
  return Number.isInteger(rate) ? { timeUnit: "1s", scale: 1 } : { timeUnit: "1m", scale: 60 };
}

export function k6Options(plan: ExportPlan, checks: ExportChecks): K6Options {
  const p = plan.phases;
  const { timeUnit, scale } = perUnit(p.rate);
  const target = Math.max(1, Math.round(p.rate * scale));
  // a VU is busy for one request (at most the 10 s timeout) or one flow (at most its timeout)
  const busySeconds = plan.flow ? plan.flow.timeoutMs / 1000 : 10;
  const maxVUs = Math.min(10_000, Math.max(10, Math.ceil(p.rate * busySeconds)));
  const thresholds: Record<string, string[]> = {};
  for (const c of checks.checks) {
    if (!c.k6) continue;
    thresholds[c.k6.metric] ??= [];
    thresholds[c.k6.metric].push(c.k6.expression);
  }
  return {
    scenarios: {
      [plan.flow ? "deepcrawl_flow" : "requests"]: {
        executor: "ramping-arrival-rate",
        exec: plan.flow ? "plumblineFlow" : "plumblineRequests",
        startRate: p.warmupSeconds > 0 ? Math.min(scale, target) : target,
        timeUnit,
        preAllocatedVUs: Math.min(maxVUs, Math.max(5, Math.ceil(p.rate * 2))),
        maxVUs,
        stages: [
          ...(p.warmupSeconds > 0 ? [{ duration: `${p.warmupSeconds}s`, target }] : []),
          { duration: `${p.durationSeconds}s`, target },
        ],
      },
    },
    thresholds,
    summaryTrendStats: ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)"],
  };
}
