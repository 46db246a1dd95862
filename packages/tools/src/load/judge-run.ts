// The verdict of a run, from its recorded figures: thresholds evaluated on the exact samples, the credit
// check, the baseline comparison, and the breaches named one line each. The report is this typed record.
import { compareWithBaseline } from "./baseline-compare.ts";
import type { ResolvedOptions } from "./load-options.ts";
import type { SampleRecorder } from "./sample-recorder.ts";
import type { Scenario } from "./scenario-file.ts";
import { describeOutcome, evaluateThresholds, type MetricSource } from "./threshold-evaluate.ts";
import type { ThresholdSet } from "./threshold-file.ts";
import type { CreditCheck, LoadReport } from "./types.ts";

export interface RunFacts {
  recorder: SampleRecorder;
  startedAt: Date;
  target: string;
  scenario: Scenario;
  options: ResolvedOptions;
  credits: CreditCheck;
  thresholds: ThresholdSet;
  baseline: { report: LoadReport; file: string } | null;
  /** the rate the run was paced at to keep to the target's limits, or null when not paced */
  limitedRate?: number | null;
}

export function judgeRun(f: RunFacts): LoadReport {
  const { recorder, options: o } = f;
  const window = o.durationSeconds;
  const overall = recorder.overallStats(window);
  const operations = recorder.operationStats(window);
  const flows = recorder.allFlowStats(window);
  const source: MetricSource = {
    sorted: (key) => recorder.sorted(key),
    figures: (key) => {
      if (key.startsWith("flow:")) {
        const flow = flows[key.slice(5)];
        return flow && { errorRate: flow.errorRate, rps: flow.rps, count: flow.completed };
      }
      const s = key === "overall" ? overall : operations[key];
      return s && s.requests + s.failures > 0 ? { errorRate: s.errorRate, rps: s.rps, count: s.requests } : undefined;
    },
  };
  const thresholds = evaluateThresholds(f.thresholds.entries, source, { rate: o.rate, limitedRate: f.limitedRate });
  const mode = o.rate === null ? "closed" : "open";
  const report: LoadReport = {
    tool: "plumbline load",
    reportVersion: 1,
    startedAt: f.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    target: f.target,
    ...(o.fixture ? { fixture: o.fixture } : {}),
    scenario: { name: f.scenario.name, kind: f.scenario.kind, description: f.scenario.description },
    mode,
    durationSeconds: o.durationSeconds,
    connections: o.connections,
    rate: o.rate,
    overall,
    serviceLatency: mode === "open" ? recorder.serviceLatency() : null,
    operations,
    flows,
    timeline: recorder.timeline(),
    credits: f.credits,
    thresholds,
    baseline: null,
    pass: true,
    breaches: [],
  };
  if (f.baseline)
    report.baseline = compareWithBaseline(f.baseline.report, report, f.baseline.file, f.thresholds.baseline);
  report.breaches = [
    ...thresholds.filter((t) => t.status === "failed").map(describeOutcome),
    ...(f.credits.pass ? [] : [`credit accounting: ${f.credits.detail}`]),
    ...(report.baseline?.outcomes ?? [])
      .filter((r) => r.regressed)
      .map(
        (r) =>
          `regression: ${r.key} ${r.metric} ${r.baseline} → ${r.current} (${r.changePercent > 0 ? "+" : ""}${r.changePercent}%)`,
      ),
  ];
  report.pass = report.breaches.length === 0;
  return report;
}
