// `plumbline load compare`: one scenario, in one run, against the plumbline mock, Prism mocking the same
// document, and a bare Fastify server answering the bytes the mock answered for each request of the scenario.
// Rounds alternate between targets so a burst of background load hits all of them; the median round counts.
import { loadContract } from "@plumbline-kit/contract";
import { createHttpClient, headerText } from "@plumbline-kit/contract/http/client";
import { median } from "../latency-summary.ts";
import {
  type BareAnswer,
  checkComparePeers,
  type Peer,
  startBarePeer,
  startMockPeer,
  startPrismPeer,
  stopPeers,
} from "../peers/peer-processes.ts";
import { buildPlan } from "../request-plan.ts";
import { runLoad } from "../run-load.ts";
import { readScenario } from "../scenario-file.ts";
import type { LoadReport, PeerComparison, PeerFigure } from "../types.ts";

export interface CompareOptions {
  scenario?: string;
  durationSeconds?: number;
  connections?: number;
  rounds?: number;
  onRound?: (line: string) => void;
}

export interface CompareResult {
  at: string;
  durationSeconds: number;
  connections: number;
  comparison: PeerComparison;
  /** each target's last round, every figure */
  runs: Record<string, LoadReport>;
}

export type CompareRun = { ok: true; result: CompareResult } | { ok: false; error: string };

const KEY = "compare-key";
const ratio = (a: number | null, b: number | null) => (a && b ? Math.round((a / b) * 100) / 100 : 0);

/** The mock's answer to each template, and to /health (the closed loop's drain requests). */
async function recordAnswers(mockUrl: string, scenarioName: string): Promise<BareAnswer[] | string> {
  const contract = await loadContract();
  const read = readScenario(scenarioName);
  if (!read.ok) return read.error;
  if (read.scenario.kind !== "requests" || read.scenario.setup.length)
    return `compare takes a request scenario without setup steps; "${scenarioName}" is not one`;
  const plan = buildPlan(read.scenario.requests, contract, { apiKey: KEY, tagTemplates: true });
  if (!plan.ok) return plan.error;
  const answers: BareAnswer[] = [];
  const health = { method: "GET", path: "/health", headers: {}, body: undefined, operationId: "health", index: -1 };
  // the client tools' one HTTP client (contract/src/http/client.ts)
  const http = createHttpClient();
  try {
    for (const t of [...plan.plan.templates, health]) {
      const res = await http.request({
        method: t.method,
        url: mockUrl + t.path,
        headers: t.headers,
        body: t.body,
        timeoutMs: 30_000,
        redirect: "manual",
      });
      if (!res.ok) return `recording the mock's answer to ${t.method} ${t.path} failed: ${res.message}`;
      answers.push({
        method: t.method,
        url: contract.operation(t.operationId).routePath,
        tag: t.index >= 0 ? String(t.index) : undefined,
        status: res.status,
        contentType: headerText(res.headers, "content-type") ?? "application/json",
        body: res.body,
      });
    }
  } finally {
    http.close();
  }
  return answers;
}

function figure(name: string, url: string, rounds: LoadReport[]): PeerFigure {
  return {
    target: name,
    url,
    requests: median(rounds.map((r) => r.overall.requests)),
    rps: median(rounds.map((r) => r.overall.rps)),
    p50: median(rounds.map((r) => r.overall.latency?.med ?? 0)),
    p99: median(rounds.map((r) => r.overall.latency?.p99 ?? 0)),
    unexpected: rounds.reduce((s, r) => s + r.overall.errors, 0),
  };
}

export async function runCompare(options: CompareOptions = {}): Promise<CompareRun> {
  const scenario = options.scenario ?? "mixed";
  const durationSeconds = options.durationSeconds ?? 5;
  const connections = options.connections ?? 10;
  const rounds = options.rounds ?? 3;
  const peers: Peer[] = [];
  try {
    // both optional peers named before anything starts, so a missing one leaves no process behind
    checkComparePeers();
    const mock = await startMockPeer(KEY);
    peers.push(mock);
    const answers = await recordAnswers(mock.url, scenario);
    if (typeof answers === "string") return { ok: false, error: answers };
    peers.push(await startPrismPeer());
    peers.push(await startBarePeer(answers));
    const perPeer: LoadReport[][] = peers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const [i, peer] of peers.entries()) {
        // the tag header goes to every target, so each one receives the same bytes
        const run = await runLoad({
          target: peer.url,
          apiKey: KEY,
          scenario,
          durationSeconds,
          warmupSeconds: 1,
          connections,
          thresholds: null,
          reportDir: null,
          creditAccounting: false,
          tagTemplates: true,
        });
        if (!run.ok) return { ok: false, error: `${peer.name}: ${run.error}` };
        perPeer[i].push(run.report);
        options.onRound?.(
          `round ${round + 1}/${rounds} ${peer.name}: ${run.report.overall.rps} answers/s, p99 ${run.report.overall.latency?.p99 ?? "–"} ms`,
        );
      }
    }
    const figures = peers.map((p, i) => figure(p.name, p.url, perPeer[i]));
    const [m, p, b] = figures;
    return {
      ok: true,
      result: {
        at: new Date().toISOString(),
        durationSeconds,
        connections,
        comparison: {
          scenario,
          rounds,
          figures,
          ratios: {
            "mock/prism throughput": ratio(m.rps, p.rps),
            "mock/bare throughput": ratio(m.rps, b.rps),
            "prism/mock p99": ratio(p.p99, m.p99),
            "mock/bare p99": ratio(m.p99, b.p99),
          },
        },
        runs: Object.fromEntries(peers.map((peer, i) => [peer.name, perPeer[i][perPeer[i].length - 1]])),
      },
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  } finally {
    stopPeers(peers);
  }
}
