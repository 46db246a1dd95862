// The latency probe of `bench crawl-load` (issue 12), run in a worker thread of its own: the crawl load is generated
// by the same process, and a probe sharing that event loop would time the load generator's own queue (JSON of 16
// concurrent answers) as the server's latency. Plain JavaScript evaluated in the thread, so it needs no loader.
import { Worker } from "node:worker_threads";
import { percentile } from "@plumbline-kit/tools/load/latency-summary";

// node:http on one kept-alive socket: fetch in a thread cost the bench about 2 ms of CPU per crawl measured, taken
// from the pool it was measuring (the one-thread runs are not probed)
const PROBE = `
const { parentPort, workerData: w } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = () =>
  new Promise((resolve, reject) => {
    const req = http.get(w.url, { agent, headers: { authorization: "Bearer " + w.key } }, (res) => {
      res.on("data", () => {});
      res.on("end", resolve);
      res.on("error", reject);
    });
    req.on("error", reject);
  });
(async () => {
  // the thread's first requests open the connection and warm the code: not the server's latency
  for (let i = 0; i < 3; i++) await get();
  const samples = [];
  const end = performance.now() + w.durationMs;
  while (performance.now() < end) {
    const t = performance.now();
    await get();
    samples.push(performance.now() - t);
    await new Promise((done) => setTimeout(done, w.gapMs));
  }
  agent.destroy();
  parentPort.postMessage(samples);
})().catch((err) => parentPort.postMessage({ error: String(err) }));
`;

/** p99 (ms) of sequential GETs of `url`, `gapMs` apart, for `durationMs`, timed in a thread of their own. */
export function probeP99(url: string, key: string, durationMs: number, gapMs = 10): Promise<number> {
  const worker = new Worker(PROBE, { eval: true, workerData: { url, key, durationMs, gapMs } });
  return new Promise<number>((resolve, reject) => {
    worker.once("message", (m: number[] | { error: string }) => {
      if (!Array.isArray(m)) reject(new Error(`latency probe of ${url}: ${m.error}`));
      else if (m.length === 0) reject(new Error(`latency probe of ${url}: no sample`));
      else resolve(percentile(Float64Array.from(m).sort(), 99));
    });
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}
