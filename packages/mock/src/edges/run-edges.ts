// runEdges(): a client team's own test command, run once against a plain mock (the baseline, which must pass) and
// once per edge of the contract (contract/edges/catalogue.ts) against a fresh mock steered into that edge for every
// request it applies to. The verdict per edge: passed, failed, or not exercised (the edge altered no request, so
// the command never met it). The command runs through the machinery of `plumbline mock -- CMD`
// (cli/wrapped-command.ts): the same environment, signals and process groups; here its output is kept per run.
import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { pickKeys, runWrapped, serverEnv, TIMED_OUT } from "@plumbline-kit/cli/wrapped-command";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { EDGES, type EdgeSpec, edgeById } from "@plumbline-kit/contract/edges/catalogue";
import { DEMO_PAYMENT_KEY } from "../demo-keys.ts";
import { startMock } from "../start-mock.ts";
import { writeEdgeReports } from "./edge-reports.ts";
import type { AlteredRequest } from "./edge-steering.ts";

export type EdgeVerdict = "passed" | "failed" | "not exercised";

export interface EdgesOptions {
  /** the command and its arguments (no shell) */
  command: string[];
  /** ids of the edges to run (default: every edge of the catalogue) */
  edges?: string[];
  /** each run's time limit in ms (default 300,000); a run past it is stopped and counts as failed */
  timeoutMs?: number;
  /** runs at once, each against its own mock on its own port (default: the machine's cores) */
  jobs?: number;
  /** where edges.json, edges.junit.xml and edges.html are written */
  reportDir?: string;
  /** the lines of each run's output kept (default 40) */
  tailLines?: number;
  /** the mock's seed (default 1) */
  seed?: number;
  /** a line per finished run, as it finishes */
  onProgress?: (line: string) => void;
  /** an already loaded contract */
  contract?: Contract;
  /** run every edge, also those that apply only to operations the baseline never called (by default those are not
   * exercised without a run: a command that calls the same operations every time cannot meet them) */
  runAll?: boolean;
}

export interface CommandRun {
  exitCode: number;
  timedOut: boolean;
  durationMs: number;
  /** the last lines of its stdout and stderr, interleaved as written */
  outputTail: string;
}

export interface EdgeRun extends Omit<CommandRun, "exitCode"> {
  edge: EdgeSpec;
  verdict: EdgeVerdict;
  /** false: not run, the baseline called none of the operations the edge applies to (verdict "not exercised") */
  ran: boolean;
  /** null when not run */
  exitCode: number | null;
  /** requests the edge altered (all of them, `altered` keeps the first 1000) */
  alteredCount: number;
  altered: AlteredRequest[];
}

export interface EdgesResult {
  command: string[];
  /** `operations`: those of the contract the command called against the plain mock */
  baseline: CommandRun & { passed: boolean; operations: string[] };
  /** empty when the baseline failed */
  edges: EdgeRun[];
  /** 0 every exercised edge passed, 1 one failed, 2 the baseline failed */
  exitCode: 0 | 1 | 2;
  startedAt: string;
  durationMs: number;
}

export const EDGES_KEY = "plumbline-edges-key";
const CREDITS = 10_000_000;
/** a poll advances the manual clock this much: a deepcrawl task (5 s of steps) completes at the 5th poll */
const POLL_ADVANCE_MS = 1000;

/** The edges of these ids, in catalogue order; an unknown id throws, naming the known ones. */
export function selectEdges(ids?: string[]): EdgeSpec[] {
  if (!ids || ids.length === 0) return [...EDGES];
  const unknown = ids.filter((id) => !edgeById(id));
  if (unknown.length > 0)
    throw new Error(`unknown edge ${unknown.join(", ")}; the edges: ${EDGES.map((e) => e.id).join(", ")}`);
  return EDGES.filter((e) => ids.includes(e.id));
}

function tailOf(chunks: Buffer[], lines: number): string {
  const text = Buffer.concat(chunks).toString("utf8").replace(/\s+$/, "");
  const all = text.split("\n");
  return all.length <= lines ? text : `… (${all.length - lines} lines before)\n${all.slice(-lines).join("\n")}`;
}

async function runOnce(
  o: EdgesOptions,
  contract: Contract,
  edge: string | null,
): Promise<CommandRun & { altered: AlteredRequest[]; alteredCount: number; operations: string[] }> {
  const mock = await startMock({
    port: 0,
    contract,
    keys: [{ key: EDGES_KEY, credits: CREDITS }],
    seed: o.seed,
    clock: "manual",
    // the mock's own limiting would turn a long test suite's requests into 429s no edge asked for
    rateLimits: { perAccount: 0 },
    edge: { id: edge, advanceClockPerPollMs: POLL_ADVANCE_MS },
  });
  const chunks: Buffer[] = [];
  let bytes = 0;
  const started = performance.now();
  try {
    const env = serverEnv({ url: mock.url, ...pickKeys(mock.keys), paymentKey: DEMO_PAYMENT_KEY });
    const exitCode = await runWrapped(o.command, env, "edges", {
      timeoutMs: o.timeoutMs ?? 300_000,
      onOutput: (chunk) => {
        chunks.push(chunk);
        bytes += chunk.length;
        // the tail is what is kept: past 1 MiB, the oldest output goes
        while (bytes > 1024 * 1024 && chunks.length > 1) bytes -= (chunks.shift() as Buffer).length;
      },
    });
    const view = mock.edge?.view() ?? { count: 0, altered: [], operations: [] };
    return {
      exitCode,
      timedOut: exitCode === TIMED_OUT,
      durationMs: Math.round(performance.now() - started),
      outputTail: tailOf(chunks, o.tailLines ?? 40),
      altered: view.altered,
      alteredCount: view.count,
      operations: view.operations,
    };
  } finally {
    await mock.close();
  }
}

/** Runs `tasks` with at most `jobs` at once, results in the tasks' order. */
async function pool<T>(jobs: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return out;
}

export async function runEdges(o: EdgesOptions): Promise<EdgesResult> {
  if (o.command.length === 0) throw new Error("no command to run: give one, e.g. -- npm test");
  const edges = selectEdges(o.edges);
  const contract = o.contract ?? (await loadContract());
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const progress = o.onProgress ?? (() => {});
  const { altered: _a, alteredCount: _c, ...base } = await runOnce(o, contract, null);
  const baseline = { ...base, passed: base.exitCode === 0 };
  progress(`baseline: ${baseline.passed ? "passed" : `failed (exit ${baseline.exitCode})`}`);
  // an edge alters only requests of its operations: a command that called none of them against the plain mock makes
  // the same requests under the edge (the same answers up to the first altered one, which never comes)
  const called = new Set(base.operations);
  const reachable = (edge: EdgeSpec) => o.runAll === true || edge.operations.some((op) => called.has(op));
  const unreached = edges.filter((e) => !reachable(e));
  if (baseline.passed && unreached.length > 0)
    progress(
      `not run, the baseline called none of their operations: ${unreached.map((e) => e.id).join(", ")} (--run-all runs them)`,
    );
  const jobs = o.jobs ?? availableParallelism();
  // each run in flight listens for the signals it passes on (SIGINT, SIGTERM, SIGHUP)
  if (process.getMaxListeners() < jobs + 10) process.setMaxListeners(jobs + 10);
  const runs: EdgeRun[] = baseline.passed
    ? await pool(
        jobs,
        edges.map((edge) => async (): Promise<EdgeRun> => {
          if (!reachable(edge))
            return {
              edge,
              verdict: "not exercised",
              ran: false,
              exitCode: null,
              timedOut: false,
              durationMs: 0,
              outputTail: "",
              altered: [],
              alteredCount: 0,
            };
          const { operations: _o, ...run } = await runOnce(o, contract, edge.id);
          const verdict: EdgeVerdict =
            run.alteredCount === 0 ? "not exercised" : run.exitCode === 0 ? "passed" : "failed";
          progress(`${edge.id}: ${verdict}`);
          return { edge, verdict, ran: true, ...run };
        }),
      )
    : [];
  const result: EdgesResult = {
    command: o.command,
    baseline,
    edges: runs,
    exitCode: !baseline.passed ? 2 : runs.some((r) => r.verdict === "failed") ? 1 : 0,
    startedAt,
    durationMs: Math.round(performance.now() - started),
  };
  if (o.reportDir) {
    mkdirSync(o.reportDir, { recursive: true });
    writeEdgeReports(result, o.reportDir);
  }
  return result;
}

/** The table printed at the end of a run: one row per edge. */
export function edgesTable(r: EdgesResult): string {
  const rows = r.edges.map((e) => [
    e.edge.id,
    e.verdict + (e.timedOut ? " (timed out)" : ""),
    String(e.alteredCount),
    e.edge.allowedBy.join("; "),
  ]);
  const head = ["edge", "verdict", "altered", "allowed by"];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(width[i] as number)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}
