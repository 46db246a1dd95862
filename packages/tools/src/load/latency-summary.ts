// Exact percentiles from the recorded samples (a run keeps every latency: a few hundred thousand numbers).
import type { LatencySummary } from "./types.ts";

const round = (n: number) => Math.round(n * 100) / 100;

/** The median of a few figures (a bench's rounds); of an even count, the upper middle one: a figure that was measured. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarise(samples: number[]): LatencySummary | null {
  if (samples.length === 0) return null;
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    min: round(sorted[0]),
    avg: round(sum / sorted.length),
    med: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    p999: round(percentile(sorted, 99.9)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** Any percentile (thresholds may ask for p(97.5)), from an ascending array. */
export function latencyAt(sorted: Float64Array, p: number): number | null {
  return sorted.length ? round(percentile(sorted, p)) : null;
}
