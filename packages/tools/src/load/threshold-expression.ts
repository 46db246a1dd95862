// Threshold expressions in k6's vocabulary: `p(99) < 50ms`, `avg<=20ms`, `error_rate < 0.1%`, `rps > 5000`.
// Grammar: METRIC OP NUMBER [UNIT]. Latency metrics take ms (the default), s or us; error_rate a fraction or
// a percentage; rps and count a bare number. A bad expression is a value with a message pointing at the
// offending column, never an exception.

export type Comparator = "<" | "<=" | ">" | ">=" | "==";

export type Metric =
  | { kind: "latency"; stat: "avg" | "min" | "max" | "med" }
  | { kind: "latency"; stat: "p"; p: number }
  | { kind: "error_rate" }
  | { kind: "rps" }
  | { kind: "count" };

export interface Threshold {
  text: string;
  metric: Metric;
  comparator: Comparator;
  /** normalised: milliseconds for latency, a fraction for error_rate */
  value: number;
}

export type ThresholdParse = { ok: true; threshold: Threshold } | { ok: false; error: string };

const LATENCY_UNITS: Record<string, number> = { ms: 1, s: 1000, us: 0.001, µs: 0.001 };
const METRIC_RE = /^(p\(\s*([0-9.]+)\s*\)|avg|min|max|med|error_rate|rps|count)/;
const COMPARATOR_RE = /^(<=|>=|==|<|>)/;
const NUMBER_RE = /^([0-9]+(?:\.[0-9]+)?|\.[0-9]+)/;

export const METRIC_NAMES = "avg, min, med, max, p(N), error_rate, rps, count";

export function parseThreshold(text: string): ThresholdParse {
  let pos = 0;
  const skip = () => {
    while (text[pos] === " " || text[pos] === "\t") pos++;
  };
  const fail = (what: string): ThresholdParse => ({
    ok: false,
    error: `bad threshold "${text}": ${what} at column ${pos + 1}${pos < text.length ? ` ("${text.slice(pos)}")` : " (end)"}`,
  });

  skip();
  const m = METRIC_RE.exec(text.slice(pos));
  if (!m) return fail(`expected a metric (${METRIC_NAMES})`);
  let metric: Metric;
  if (m[2] !== undefined) {
    const p = Number(m[2]);
    if (!(p > 0 && p <= 100)) return fail(`the percentile of p(N) must be in (0, 100], not ${m[2]}`);
    metric = { kind: "latency", stat: "p", p };
  } else if (m[1] === "error_rate" || m[1] === "rps" || m[1] === "count") metric = { kind: m[1] };
  else metric = { kind: "latency", stat: m[1] as "avg" | "min" | "max" | "med" };
  pos += m[0].length;

  skip();
  const c = COMPARATOR_RE.exec(text.slice(pos));
  if (!c) return fail("expected a comparator (<, <=, >, >=, ==)");
  pos += c[0].length;

  skip();
  const n = NUMBER_RE.exec(text.slice(pos));
  if (!n) return fail("expected a number");
  let value = Number(n[0]);
  pos += n[0].length;

  skip();
  const unit = text.slice(pos).trim();
  if (metric.kind === "latency") {
    if (unit && !(unit in LATENCY_UNITS)) return fail(`a latency takes ms, s or us`);
    value *= LATENCY_UNITS[unit || "ms"];
  } else if (metric.kind === "error_rate") {
    if (unit === "%") value /= 100;
    else if (unit) return fail("error_rate takes a fraction (0.001) or a percentage (0.1%)");
    if (value > 1) return fail("error_rate is at most 1 (100%)");
  } else if (unit) return fail(`${metric.kind} takes a bare number`);
  return { ok: true, threshold: { text: text.trim(), metric, comparator: c[0] as Comparator, value } };
}

export function compare(actual: number, comparator: Comparator, bound: number): boolean {
  switch (comparator) {
    case "<":
      return actual < bound;
    case "<=":
      return actual <= bound;
    case ">":
      return actual > bound;
    case ">=":
      return actual >= bound;
    case "==":
      return actual === bound;
  }
}

export function metricLabel(m: Metric): string {
  if (m.kind !== "latency") return m.kind;
  return m.stat === "p" ? `p(${m.p})` : m.stat;
}
