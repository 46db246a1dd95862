// Benchmark (not a test): POST /search throughput and p99 of the plumbline mock, Prism mocking the same spec,
// and a bare Fastify route returning the same bytes, in one run on loopback (issue 3 quality bar).
// Run: node bin/plumbline.js bench mock-search [--duration S] [--connections N]  → reports/bench/mock-search.json
// load/ is a client: it starts the mock through its CLI, never by importing it.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "@plumbline-kit/tools/load/latency-summary";
import {
  type Peer,
  startBarePeer,
  startMockPeer,
  startPrismPeer,
  stopPeers,
} from "@plumbline-kit/tools/load/peers/peer-processes";
import autocannon from "autocannon";

const KEY = "bench-key";
const BODY = JSON.stringify({ query: "benchmark query", max_results: 5 });

export interface BenchFigure {
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface BenchResult {
  at: string;
  durationSeconds: number;
  connections: number;
  rounds: number;
  figures: BenchFigure[];
  ratios: { mockOverPrism: number; mockOverBareFastify: number };
  targets: { mockOverPrism: number; mockOverBareFastify: number };
  pass: boolean;
}

async function measure(
  target: string,
  url: string,
  durationSeconds: number,
  connections: number,
): Promise<BenchFigure> {
  const opts = {
    url: `${url}/search`,
    method: "POST" as const,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: BODY,
    connections,
  };
  await autocannon({ ...opts, duration: 1 }); // warm-up
  const r = await autocannon({ ...opts, duration: durationSeconds });
  return {
    target,
    requestsPerSecond: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** The median round of each figure: rounds alternate between targets, so a burst of background load hits all. */
function medianFigure(rounds: BenchFigure[]): BenchFigure {
  return {
    target: rounds[0].target,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
  };
}

export async function benchMockSearch(
  options: { durationSeconds?: number; connections?: number; rounds?: number } = {},
): Promise<BenchResult> {
  const durationSeconds = options.durationSeconds ?? 5;
  const connections = options.connections ?? 10;
  const rounds = options.rounds ?? 3;
  const peers: Peer[] = [];
  try {
    const mock = await startMockPeer(KEY);
    peers.push(mock);
    peers.push(await startPrismPeer());
    // the floor: the same bytes the mock answers, from a route that does nothing else, in its own process like
    // the mock and Prism, so no peer shares a core with the load generator
    const sample = await fetch(`${mock.url}/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: BODY,
    });
    const body = Buffer.from(await sample.arrayBuffer());
    const contentType = "application/json; charset=utf-8";
    peers.push(await startBarePeer([{ method: "POST", url: "/search", status: 200, contentType, body }]));
    const servers = peers.map((p): [string, string] => [p.name, p.url]);
    const perTarget: BenchFigure[][] = servers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const [i, [name, url]] of servers.entries())
        perTarget[i].push(await measure(name, url, durationSeconds, connections));
    }
    const figures = perTarget.map(medianFigure);
    const [m, p, b] = figures;
    const ratios = {
      mockOverPrism: Math.round((m.requestsPerSecond / p.requestsPerSecond) * 100) / 100,
      mockOverBareFastify: Math.round((m.requestsPerSecond / b.requestsPerSecond) * 100) / 100,
    };
    const targets = { mockOverPrism: 10, mockOverBareFastify: 0.6 };
    return {
      at: new Date().toISOString(),
      durationSeconds,
      connections,
      rounds,
      figures,
      ratios,
      targets,
      pass:
        ratios.mockOverPrism >= targets.mockOverPrism &&
        ratios.mockOverBareFastify >= targets.mockOverBareFastify &&
        m.errors === 0 &&
        m.non2xx === 0,
    };
  } finally {
    stopPeers(peers);
  }
}

export function renderBench(r: BenchResult): string {
  const rows = r.figures.map(
    (f) => `| ${f.target} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors + f.non2xx} |`,
  );
  return [
    `POST /search, ${r.connections} connections, median of ${r.rounds} alternating rounds of ${r.durationSeconds} s, loopback`,
    "",
    "| target | req/s | p50 ms | p99 ms | errors |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `mock / prism = ${r.ratios.mockOverPrism}× (target ≥ ${r.targets.mockOverPrism}×); mock / bare fastify = ${r.ratios.mockOverBareFastify}× (target ≥ ${r.targets.mockOverBareFastify}×): ${r.pass ? "PASS" : "FAIL"}`,
  ].join("\n");
}

export function writeBench(r: BenchResult, dir = join(process.cwd(), "reports/bench")): string {
  mkdirSync(dir, { recursive: true });
  const path = `${dir}/mock-search.json`;
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`);
  return path;
}
