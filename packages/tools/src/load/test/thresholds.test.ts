// Threshold expressions, files and evaluation: the vocabulary, the errors a person sees for a bad expression,
// and the verdicts, including keys a scenario does not exercise.

import { loadContract } from "@plumbline-kit/contract";
import { describe, expect, it } from "vitest";
import { evaluateThresholds, type MetricSource } from "../threshold-evaluate.ts";
import { parseThreshold, type Threshold } from "../threshold-expression.ts";
import { DEFAULT_THRESHOLDS, parseThresholdSet, readThresholdSet, THRESHOLD_DIR } from "../threshold-file.ts";

const parsed = (text: string): Threshold => {
  const r = parseThreshold(text);
  if (!r.ok) throw new Error(r.error);
  return r.threshold;
};

describe("parseThreshold", () => {
  it.each([
    ["p(99) < 50ms", { kind: "latency", stat: "p", p: 99 }, "<", 50],
    ["p(95)<200", { kind: "latency", stat: "p", p: 95 }, "<", 200],
    ["p(99.9) <= 1.5s", { kind: "latency", stat: "p", p: 99.9 }, "<=", 1500],
    ["avg < 250us", { kind: "latency", stat: "avg" }, "<", 0.25],
    ["med<10 ms", { kind: "latency", stat: "med" }, "<", 10],
    ["max < 2s", { kind: "latency", stat: "max" }, "<", 2000],
    ["error_rate < 0.1%", { kind: "error_rate" }, "<", 0.001],
    ["error_rate<=0.01", { kind: "error_rate" }, "<=", 0.01],
    ["error_rate == 0", { kind: "error_rate" }, "==", 0],
    ["rps > 5000", { kind: "rps" }, ">", 5000],
    ["count >= 1", { kind: "count" }, ">=", 1],
  ])("%s", (text, metric, comparator, value) => {
    const t = parsed(text);
    expect(t.metric).toEqual(metric);
    expect(t.comparator).toBe(comparator);
    expect(t.value).toBeCloseTo(value as number, 9);
  });

  it.each([
    ["p99 < 50ms", /expected a metric .*column 1/],
    ["latency < 5ms", /expected a metric \(avg, min, med, max, p\(N\), error_rate, rps, count\)/],
    ["p(0) < 5ms", /percentile of p\(N\) must be in \(0, 100\]/],
    ["p(101) < 5ms", /must be in \(0, 100\], not 101/],
    ["p(99) 50ms", /expected a comparator .* at column 7/],
    ["p(99) => 50ms", /expected a comparator/],
    ["p(99) < fast", /expected a number at column 9 \("fast"\)/],
    ["p(99) < 50 minutes", /a latency takes ms, s or us/],
    ["p(99) < 50%", /a latency takes ms, s or us/],
    ["error_rate < 1ms", /error_rate takes a fraction .* or a percentage/],
    ["error_rate < 150%", /error_rate is at most 1/],
    ["rps > 5k", /rps takes a bare number/],
    ["", /expected a metric .*\(end\)/],
  ])("refuses %j with a clear message", (text, message) => {
    const r = parseThreshold(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(message);
      expect(r.error).toContain(`bad threshold "${text}"`);
    }
  });
});

function source(
  samples: Record<string, number[]>,
  figures: Record<string, { errorRate: number; rps: number }>,
): MetricSource {
  return {
    sorted: (key) => (samples[key] ? Float64Array.from(samples[key]).sort() : undefined),
    figures: (key) => (figures[key] ? { ...figures[key], count: samples[key]?.length ?? 0 } : undefined),
  };
}

describe("evaluateThresholds", () => {
  const latencies = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100 ms
  const src = source(
    { overall: latencies, search: latencies, crawl: [] },
    { overall: { errorRate: 0.002, rps: 4200 }, search: { errorRate: 0, rps: 3000 }, crawl: { errorRate: 1, rps: 0 } },
  );
  const entries = (key: string, ...texts: string[]) => texts.map((t) => ({ key, threshold: parsed(t) }));

  it("passes and fails on the measured value, with the value reported", () => {
    const out = evaluateThresholds(
      [
        ...entries("overall", "p(99) < 100ms", "p(99) < 99ms", "avg <= 50.5ms", "max < 100ms", "min == 1"),
        ...entries("overall", "error_rate < 0.1%", "error_rate < 1%", "rps > 5000", "rps > 4000", "count == 100"),
      ],
      src,
      { rate: null },
    );
    expect(out.map((o) => [o.expression, o.status, o.actual])).toEqual([
      ["p(99) < 100ms", "passed", 99],
      ["p(99) < 99ms", "failed", 99],
      ["avg <= 50.5ms", "passed", 50.5],
      ["max < 100ms", "failed", 100],
      ["min == 1", "passed", 1],
      ["error_rate < 0.1%", "failed", 0.002],
      ["error_rate < 1%", "passed", 0.002],
      ["rps > 5000", "failed", 4200],
      ["rps > 4000", "passed", 4200],
      ["count == 100", "passed", 100],
    ]);
  });

  it("skips a key the scenario does not exercise, fails one that was exercised with nothing to measure", () => {
    const out = evaluateThresholds([...entries("news", "p(99) < 1ms"), ...entries("crawl", "p(99) < 1s")], src, {
      rate: null,
    });
    expect(out[0]).toMatchObject({ status: "skipped", note: "the scenario does not exercise it" });
    expect(out[1]).toMatchObject({ status: "failed", actual: null });
    expect(out[1].note).toMatch(/nothing answered/);
  });

  it("at a rate-limited pace, says how many answers a percentile needs and how many were measured, in agreement", () => {
    const few = (n: number) => source({ search: latencies.slice(0, n) }, { search: { errorRate: 0, rps: 1 } });
    const note = (n: number) =>
      evaluateThresholds(entries("search", "p(99) < 1s"), few(n), { rate: null, limitedRate: 3 })[0].note;
    expect(note(1)).toBe(
      "cannot be judged at the rate the target's limits allow (3 requests/s): p(99) needs 500 answers, 1 was measured",
    );
    expect(note(2)).toMatch(/p\(99\) needs 500 answers, 2 were measured$/);
  });

  it("in an open loop, skips an rps bound the requested rate cannot reach", () => {
    const out = evaluateThresholds(entries("overall", "rps > 5000", "rps > 100"), src, { rate: 1000 });
    expect(out.map((o) => o.status)).toEqual(["skipped", "passed"]);
  });
});

describe("thresholds files", () => {
  it("a scenario's list for a key replaces the default list for that key", () => {
    const raw = {
      thresholds: { overall: ["p(99) < 10ms"], search: ["p(99) < 5ms"] },
      scenarios: { slow: { overall: ["p(99) < 1s"] } },
    };
    const r = parseThresholdSet(raw, "slow", ["search"], "inline");
    expect(r.ok && r.set.entries.map((e) => `${e.key}: ${e.threshold.text}`)).toEqual([
      "overall: p(99) < 1s",
      "search: p(99) < 5ms",
    ]);
  });

  it.each([
    [{ thresholds: { serch: ["p(99) < 5ms"] } }, /thresholds\.serch: unknown key "serch"/],
    [
      { thresholds: { search: ["p(99) < soon"] } },
      /thresholds\.search: bad threshold "p\(99\) < soon": expected a number/,
    ],
    [{ thresholds: { search: "p(99) < 5ms" } }, /thresholds\.search must be a list of strings/],
    [{ scenarios: { x: { overall: ["rps >"] } } }, /scenarios\.x\.overall: bad threshold "rps >"/],
    [{ treshold: {} }, /unknown field\(s\) treshold/],
    [{ baseline: { maxRegressionPercent: "lots" } }, /maxRegressionPercent must be a number/],
    [[], /not a JSON object/],
  ])("names the problem in %j", (raw, message) => {
    const r = parseThresholdSet(raw, "x", ["search"], "t.json");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it("the committed defaults for the mock and the reference parse for every scenario", async () => {
    const contract = await loadContract();
    const ids = contract.contractOperations.map((o) => o.operationId);
    for (const file of [DEFAULT_THRESHOLDS, `${THRESHOLD_DIR}reference.json`]) {
      for (const scenario of ["mixed", "search", "screenshot", "deepcrawl-flow"]) {
        const r = readThresholdSet(file, scenario, ids);
        expect(r.ok ? r.set.entries.length : r.error).toBeGreaterThan(3);
      }
    }
  });
});
