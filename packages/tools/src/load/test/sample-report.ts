// A load report with made-up but consistent figures, for the report and baseline tests.
import type { LatencySummary, LoadReport, OperationStats } from "../types.ts";

const latency = (scale: number): LatencySummary => ({
  min: 0.4 * scale,
  avg: 2.1 * scale,
  med: 1.8 * scale,
  p90: 3.5 * scale,
  p95: 4.6 * scale,
  p99: 9.2 * scale,
  p999: 15 * scale,
  max: 21 * scale,
});

const stats = (requests: number, scale: number): OperationStats => ({
  requests,
  failures: 0,
  errors: 0,
  errorRate: 0,
  rps: requests / 5,
  latency: latency(scale),
  statuses: { "200": requests },
  invalidSent: 0,
  throttled: 0,
  heldBack: 0,
});

export function sampleReport(scale = 1): LoadReport {
  return {
    tool: "plumbline load",
    reportVersion: 1,
    startedAt: "2026-11-25T12:00:00.000Z",
    finishedAt: "2026-11-25T12:00:05.500Z",
    target: "http://127.0.0.1:4010/",
    scenario: { name: "mixed", kind: "requests", description: "a <mix> & more" },
    mode: "closed",
    durationSeconds: 5,
    connections: 10,
    rate: null,
    overall: stats(10_000, scale),
    serviceLatency: null,
    operations: { search: stats(7000, scale), crawl: stats(3000, scale * 1.5) },
    flows: {
      deepcrawl: {
        started: 12,
        completed: 11,
        failed: 0,
        incomplete: 1,
        errorRate: 1 / 12,
        rps: 2.2,
        timeToCompleted: latency(100 * scale),
        pollsPerFlow: 3,
      },
    },
    timeline: [0, 1, 2, 3, 4].map((second) => ({
      second,
      requests: 1900 + second * 50,
      errors: second === 2 ? 3 : 0,
      p50: 1.8 * scale,
      p90: 3.5 * scale,
      p99: (9 + second) * scale,
    })),
    credits: {
      checked: true,
      pass: true,
      detail: "balance 1000 → 900: spent 100, counted 100",
      startBalance: 1000,
      endBalance: 900,
      spent: 100,
      counted: 100,
      unresolved: 0,
      unresolvedCredits: 0,
    },
    thresholds: [
      { key: "overall", expression: "p(99) < 50ms", actual: 9.2 * scale, status: "passed" },
      {
        key: "news",
        expression: "p(99) < 50ms",
        actual: null,
        status: "skipped",
        note: "the scenario does not exercise it",
      },
    ],
    baseline: null,
    pass: true,
    breaches: [],
  };
}
