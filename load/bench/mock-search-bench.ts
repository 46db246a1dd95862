// Benchmark (not a test): POST /search throughput and p99 of the plumbline mock, Prism mocking the same spec,
// and a bare Fastify route returning the same bytes, in one run on loopback (issue 3 quality bar).
// Run: node bin/plumbline.js bench mock-search [--duration S] [--connections N]  → reports/bench/mock-search.json
// load/ is a client: it starts the mock through its CLI, never by importing it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function startProcess(cmd: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start:\n${log}`)), 60_000);
    const onData = (d: Buffer) => {
      log += d;
      if (ready.test(log)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${cmd} exited with ${code}:\n${log}`)));
  });
}

/** A Fastify server whose one route answers the given bytes: the floor any Fastify-based mock can reach. */
function bareServer(bytesFile: string, port: number): string {
  return `import Fastify from "fastify"; import { readFileSync } from "node:fs";
const bytes = readFileSync(${JSON.stringify(bytesFile)});
const app = Fastify();
app.post("/search", async (_req, reply) => reply.type("application/json; charset=utf-8").send(bytes));
await app.listen({ port: ${port}, host: "127.0.0.1" });
console.log("listening");`;
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
  const [mockPort, prismPort] = [await freePort(), await freePort()];
  const mock = await startProcess(
    process.execPath,
    ["bin/plumbline.js", "mock", "--port", String(mockPort), "--key", `${KEY}:1000000000`, "--rate-limit", "0"],
    /listening on/,
  );
  const prism = await startProcess(
    `${ROOT}node_modules/.bin/prism`,
    ["mock", "spec/openapi.yaml", "-p", String(prismPort), "-h", "127.0.0.1"],
    /Prism is listening/,
  );
  // the floor: the same bytes the mock answers, from a route that does nothing else
  const mockUrl = `http://127.0.0.1:${mockPort}`;
  const sample = await fetch(`${mockUrl}/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: BODY,
  });
  const bytesFile = join(mkdtempSync(join(tmpdir(), "plumbline-bench-")), "search.json");
  writeFileSync(bytesFile, Buffer.from(await sample.arrayBuffer()));
  // in its own process, like the mock and Prism, so no peer shares a core with the load generator
  const barePort = await freePort();
  const bare = await startProcess(
    process.execPath,
    ["--input-type=module", "-e", bareServer(bytesFile, barePort)],
    /listening/,
  );
  const bareUrl = `http://127.0.0.1:${barePort}`;
  try {
    const servers: Array<[string, string]> = [
      ["plumbline mock", mockUrl],
      ["prism mock", `http://127.0.0.1:${prismPort}`],
      ["bare fastify", bareUrl],
    ];
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
    mock.kill("SIGTERM");
    prism.kill("SIGTERM");
    bare.kill("SIGTERM");
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

export function writeBench(r: BenchResult, dir = `${ROOT}reports/bench`): string {
  mkdirSync(dir, { recursive: true });
  const path = `${dir}/mock-search.json`;
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`);
  return path;
}
