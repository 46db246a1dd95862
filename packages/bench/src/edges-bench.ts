// `plumbline bench edges`: how long `plumbline edges` takes for the whole catalogue against a client whose test run
// takes about a second (issue 40's target: under a minute on 2 cores with --jobs). The client is the careful one of
// examples/edges-client (node --test, six tests calling every paid operation), so every edge is exercised and
// passes; the figures are the baseline's duration, each edge's, and the whole run's wall time.
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { type EdgesResult, runEdges } from "@plumbline-kit/mock/edges/run-edges";

const EXAMPLE_TEST = fileURLToPath(new URL("../../../examples/edges-client/test/journey.test.mjs", import.meta.url));
/** the target: the whole catalogue in under a minute */
export const EDGES_TARGET_MS = 60_000;

export interface EdgesBenchResult {
  jobs: number;
  edges: number;
  baselineMs: number;
  wallMs: number;
  /** each edge's run, slowest first */
  runs: Array<{ id: string; verdict: string; ms: number }>;
  passed: number;
  failed: number;
  notExercised: number;
  withinTarget: boolean;
  machine: { cpus: number; model: string; loadAvg1m: number };
}

export async function benchEdges(o: { jobs?: number } = {}): Promise<EdgesBenchResult> {
  const jobs = o.jobs ?? Math.min(2, availableParallelism());
  process.env.EDGES_CLIENT = "careful";
  const started = performance.now();
  const r: EdgesResult = await runEdges({ command: [process.execPath, "--test", EXAMPLE_TEST], jobs });
  const wallMs = Math.round(performance.now() - started);
  const count = (v: string) => r.edges.filter((e) => e.verdict === v).length;
  return {
    jobs,
    edges: r.edges.length,
    baselineMs: r.baseline.durationMs,
    wallMs,
    runs: r.edges.map((e) => ({ id: e.edge.id, verdict: e.verdict, ms: e.durationMs })).sort((a, b) => b.ms - a.ms),
    passed: count("passed"),
    failed: count("failed"),
    notExercised: count("not exercised"),
    withinTarget: r.baseline.passed && wallMs < EDGES_TARGET_MS,
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "", loadAvg1m: loadavg()[0] ?? 0 },
  };
}

export function renderEdgesBench(r: EdgesBenchResult): string {
  return [
    `plumbline edges, the whole catalogue (${r.edges} edges) against examples/edges-client's careful client, --jobs ${r.jobs}`,
    `  baseline (one run of the client's tests): ${(r.baselineMs / 1000).toFixed(2)} s`,
    `  whole run: ${(r.wallMs / 1000).toFixed(1)} s (target under ${EDGES_TARGET_MS / 1000} s: ${r.withinTarget ? "met" : "missed"})`,
    `  verdicts: ${r.passed} passed, ${r.failed} failed, ${r.notExercised} not exercised`,
    `  slowest runs: ${r.runs
      .slice(0, 5)
      .map((x) => `${x.id} ${(x.ms / 1000).toFixed(2)} s`)
      .join(", ")}`,
    `  machine: ${r.machine.cpus} cores (${r.machine.model}), load ${r.machine.loadAvg1m.toFixed(2)}`,
  ].join("\n");
}
