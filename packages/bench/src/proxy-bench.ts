// `plumbline bench proxy`: what the proxy adds. The mock and the proxy each run as a child process (the commands a
// user runs), this process is the client: per round, N sequential POST /search calls straight to the mock and N
// through the proxy (which judges each one), then a fixed-time throughput run of each with C connections, the order
// alternating between rounds; the figures are the medians over the rounds. Then 1,000 concurrent requests through a
// recording proxy, and the count of entries in its recording. Lives in bench/ because it starts its processes with
// the test glue's launcher (test-support/cli-process.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import autocannon from "autocannon";

export interface ProxyBenchOptions {
  /** alternating rounds (default 5) */
  rounds?: number;
  /** sequential requests per side per round (default 300) */
  requests?: number;
  /** seconds of each throughput run (default 3) */
  duration?: number;
  /** connections of the throughput runs (default 16) */
  connections?: number;
  /** where the JSON result is written (default reports/bench/proxy.json; null: nowhere) */
  out?: string | null;
}

interface Side {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
}

export interface ProxyBenchRound {
  direct: Side;
  proxied: Side;
  addedP50Ms: number;
  addedP99Ms: number;
}

export interface ProxyBenchResult {
  date: string;
  machine: { cpus: number; model: string; node: string; loadAverage: number[] };
  request: string;
  rounds: ProxyBenchRound[];
  /** medians over the rounds */
  median: { addedP50Ms: number; addedP99Ms: number; directRps: number; proxiedRps: number; throughputRatio: number };
  /** the aim of the proxy's design: p50 added ≤ 1 ms on loopback */
  aimMet: boolean;
  recording: { sent: number; answered: number; entries: number; complete: boolean };
}

const KEY = "bench-proxy-key";
const BODY = JSON.stringify({ query: "plumbline proxy bench", max_results: 5 });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const round3 = (n: number) => Math.round(n * 1000) / 1000;

function once(base: URL, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: "/search",
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(BODY),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(BODY);
  });
}

async function latencies(url: string, n: number): Promise<number[]> {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < 20; i++) await once(base, agent); // warm-up: connection, JIT
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const status = await once(base, agent);
      out.push(performance.now() - t0);
      if (status !== 200) throw new Error(`POST /search answered ${status} during the benchmark`);
    }
    return out.sort((a, b) => a - b);
  } finally {
    agent.destroy();
  }
}

async function throughput(url: string, duration: number, connections: number): Promise<number> {
  const r = await autocannon({
    url: `${url}/search`,
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: BODY,
    connections,
    duration,
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`throughput run: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return r.requests.average;
}

async function side(url: string, o: Required<Omit<ProxyBenchOptions, "out">>): Promise<Side> {
  const l = await latencies(url, o.requests);
  return {
    p50Ms: round3(quantile(l, 0.5)),
    p99Ms: round3(quantile(l, 0.99)),
    requestsPerSecond: Math.round(await throughput(url, o.duration, o.connections)),
  };
}

async function recordingCheck(target: string): Promise<ProxyBenchResult["recording"]> {
  const { startProxy } = await import("@plumbline-kit/tools/proxy/start-proxy");
  const dir = mkdtempSync(join(tmpdir(), "plumbline-bench-proxy-"));
  const file = join(dir, "concurrent.har");
  try {
    const proxy = await startProxy({ upstream: target, port: 0, record: file, reportDir: null });
    const agent = new Agent({ keepAlive: true, maxSockets: 1000 });
    const base = new URL(proxy.url);
    const statuses = await Promise.all(Array.from({ length: 1000 }, () => once(base, agent).catch(() => 0)));
    agent.destroy();
    await proxy.close();
    const entries = (JSON.parse(readFileSync(file, "utf8")) as { log: { entries: unknown[] } }).log.entries.length;
    const answered = statuses.filter((s) => s === 200).length;
    return { sent: 1000, answered, entries, complete: entries === 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchProxy(options: ProxyBenchOptions = {}): Promise<ProxyBenchResult> {
  const o = {
    rounds: options.rounds ?? 5,
    requests: options.requests ?? 300,
    duration: options.duration ?? 3,
    connections: options.connections ?? 16,
  };
  // the test glue is loaded when the benchmark runs, not when the package's entry (index.ts) is
  const { startCliProcess } = await import("../../../test-support/cli-process.ts");
  const reportDir = mkdtempSync(join(tmpdir(), "plumbline-bench-proxy-report-"));
  const mock = await startCliProcess(
    ["mock", "--port", "0", "--key", `${KEY}:1000000000`, "--rate-limit", "0"],
    "mock",
  );
  try {
    const proxy = await startCliProcess(
      ["proxy", "--upstream", mock.url, "--port", "0", "--report-dir", reportDir],
      "proxy",
    );
    const rounds: ProxyBenchRound[] = [];
    try {
      for (let i = 0; i < o.rounds; i++) {
        // alternating which goes first, so a drift of the machine's load does not favour one side
        const [direct, proxied] =
          i % 2 === 0
            ? [await side(mock.url, o), await side(proxy.url, o)]
            : await side(proxy.url, o).then(async (p) => [await side(mock.url, o), p]);
        rounds.push({
          direct,
          proxied,
          addedP50Ms: round3(proxied.p50Ms - direct.p50Ms),
          addedP99Ms: round3(proxied.p99Ms - direct.p99Ms),
        });
      }
    } finally {
      await proxy.stop();
    }
    const recording = await recordingCheck(mock.url);
    const directRps = median(rounds.map((r) => r.direct.requestsPerSecond));
    const proxiedRps = median(rounds.map((r) => r.proxied.requestsPerSecond));
    const result: ProxyBenchResult = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "", node: process.version, loadAverage: loadavg() },
      request:
        "POST /search {query, max_results: 5}, keep-alive; the mock as a child process (--rate-limit 0), the proxy as a child process (judging every exchange, not recording)",
      rounds,
      median: {
        addedP50Ms: round3(median(rounds.map((r) => r.addedP50Ms))),
        addedP99Ms: round3(median(rounds.map((r) => r.addedP99Ms))),
        directRps,
        proxiedRps,
        throughputRatio: round3(proxiedRps / directRps),
      },
      aimMet: median(rounds.map((r) => r.addedP50Ms)) <= 1,
      recording,
    };
    const out = options.out === undefined ? "reports/bench/proxy.json" : options.out;
    if (out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    }
    return result;
  } finally {
    await mock.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

export function renderProxyBench(r: ProxyBenchResult): string {
  const lines = [
    `plumbline bench proxy, ${r.date}, ${r.machine.cpus} × ${r.machine.model}, Node ${r.machine.node}, load ${r.machine.loadAverage.map((x) => x.toFixed(2)).join(" ")}`,
    r.request,
    "round  direct p50/p99 ms  proxied p50/p99 ms  added p50/p99 ms  direct req/s  proxied req/s",
    ...r.rounds.map(
      (x, i) =>
        `${String(i + 1).padStart(5)}  ${`${x.direct.p50Ms}/${x.direct.p99Ms}`.padStart(17)}  ${`${x.proxied.p50Ms}/${x.proxied.p99Ms}`.padStart(18)}  ${`${x.addedP50Ms}/${x.addedP99Ms}`.padStart(16)}  ${String(x.direct.requestsPerSecond).padStart(12)}  ${String(x.proxied.requestsPerSecond).padStart(13)}`,
    ),
    `median: added p50 ${r.median.addedP50Ms} ms, p99 ${r.median.addedP99Ms} ms; throughput ${r.median.proxiedRps} vs ${r.median.directRps} req/s (${r.median.throughputRatio}×); aim p50 added ≤ 1 ms: ${r.aimMet ? "met" : "missed"}`,
    `1,000 concurrent requests through a recording proxy: ${r.recording.answered} answered 200, ${r.recording.entries} entries in the recording${r.recording.complete ? "" : " (INCOMPLETE)"}`,
  ];
  return lines.join("\n");
}
