// `plumbline bench crawl-load` (issue 12): the reference under crawl load of real article pages, over HTTP only.
// The pages of a dataset folder (`html/*.html.gz`, the article-extraction layout) are served from loopback; the
// reference runs through its CLI, once with one parsing thread (what one thread parses) and once with its default
// pool. In each run /health and /usage are probed while idle and while 16 concurrent crawls saturate the pool.
// Targets: loaded p99 <= 2x idle p99 (default pool), pages/s >= 1.5x the one-thread run.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createSender } from "../http-send.ts";
import { freePort, startProcess } from "../peers/peer-processes.ts";
import { probeP99 } from "./latency-probe.ts";

export interface CrawlLoadOptions {
  dataDir: string;
  durationSeconds: number;
  connections: number;
  /** the default run's parsing threads (default: the reference's own choice, the cores) */
  threads?: number;
}

export interface RunFigures {
  threads: string;
  pagesPerSecond: number;
  failed: number;
  idle: { health: number; usage: number };
  loaded: { health: number; usage: number };
}

export interface CrawlLoadResult {
  pages: number;
  single: RunFigures;
  pool: RunFigures;
  throughputRatio: number;
  healthRatio: number;
  usageRatio: number;
  pass: boolean;
}

const KEY = "BENCHCRAWL";
const PROBE_GAP_MS = 50;

function readPages(dir: string): Buffer[] {
  const folder = existsSync(join(dir, "html")) ? join(dir, "html") : dir;
  const files = readdirSync(folder).filter((f) => f.endsWith(".html.gz") || f.endsWith(".html"));
  if (files.length === 0) throw new Error(`no *.html.gz or *.html pages in ${folder}`);
  return files.sort().map((f) => {
    const raw = readFileSync(join(folder, f));
    return f.endsWith(".gz") ? gunzipSync(raw) : raw;
  });
}

async function oneRun(site: string, pages: number, o: CrawlLoadOptions, threads: number | null): Promise<RunFigures> {
  const data = mkdtempSync(join(tmpdir(), "plumbline-crawl-load-"));
  const port = await freePort();
  const args = ["bin/plumbline.js", "reference", "--port", String(port), "--data-dir", data, "--allow-private-network"];
  args.push("--key", `${KEY}:1000000000`, "--rate-limit", "0");
  if (threads !== null) args.push("--parse-threads", String(threads));
  const { child } = await startProcess(process.execPath, args, /listening on (http:\/\/\S+)/);
  const url = `http://127.0.0.1:${port}`;
  let stopSender = async () => {};
  try {
    // the load generator shares the two cores with the server: undici's dispatch API, the cheapest client in Node
    // (fetch cost the bench about 3 ms of CPU per crawl, this 1.5 ms)
    const sender = createSender(new URL(url), o.connections, 60_000);
    stopSender = () => sender.close();
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    let next = 0;
    let ok = 0;
    let failed = 0;
    const crawlOne = async () => {
      const i = next++ % pages;
      const body = Buffer.from(JSON.stringify({ url: `${site}/p/${i}`, enableFallback: false }));
      const r = await sender.send({ method: "POST", path: "/crawl", headers, body });
      if (r.ok && r.status === 200) ok++;
      else failed++;
    };
    // warm-up: every worker loaded and every page crawled once
    for (let i = 0; i < Math.min(pages, 32); i += 4) await Promise.all([0, 1, 2, 3].map(crawlOne));
    // idle and loaded probed alike: as long (a p99 of few samples is their maximum), both operations at once, each
    // every 50 ms (about 300 samples in 15 s; a probe that fires more often becomes part of the load it measures)
    const idleMs = o.durationSeconds * 1_000 - 500;
    const [idleHealth, idleUsage] = await Promise.all([
      probeP99(`${url}/health`, KEY, idleMs, PROBE_GAP_MS),
      probeP99(`${url}/usage`, KEY, idleMs, PROBE_GAP_MS),
    ]);
    const idle = { health: idleHealth, usage: idleUsage };
    ok = 0;
    failed = 0;
    const start = performance.now();
    const end = start + o.durationSeconds * 1_000;
    const stop = () => performance.now() > end;
    const workers = Array.from({ length: o.connections }, async () => {
      while (!stop()) await crawlOne();
    });
    // the probes start once the crawls are under way and end with them
    const during = o.durationSeconds * 1_000 - 500;
    const [health, usage] = await Promise.all([
      probeP99(`${url}/health`, KEY, during, PROBE_GAP_MS),
      probeP99(`${url}/usage`, KEY, during, PROBE_GAP_MS),
    ]);
    await Promise.all(workers);
    const seconds = (performance.now() - start) / 1_000;
    return {
      threads: threads === null ? "default" : String(threads),
      pagesPerSecond: ok / seconds,
      failed,
      idle,
      loaded: { health, usage },
    };
  } finally {
    await stopSender();
    await new Promise<void>((r) => {
      child.once("exit", () => r());
      child.kill("SIGTERM");
    });
    rmSync(data, { recursive: true, force: true });
  }
}

export async function benchCrawlLoad(o: CrawlLoadOptions): Promise<CrawlLoadResult> {
  const pages = readPages(o.dataDir);
  const server = createServer((req, res) => {
    const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? "")?.[1]);
    const page = pages[i];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const site = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const single = await oneRun(site, pages.length, o, 1);
    const pool = await oneRun(site, pages.length, o, o.threads ?? null);
    const throughputRatio = pool.pagesPerSecond / single.pagesPerSecond;
    const healthRatio = pool.loaded.health / pool.idle.health;
    const usageRatio = pool.loaded.usage / pool.idle.usage;
    return {
      pages: pages.length,
      single,
      pool,
      throughputRatio,
      healthRatio,
      usageRatio,
      pass: throughputRatio >= 1.5 && healthRatio <= 2 && usageRatio <= 2,
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export function renderCrawlLoad(r: CrawlLoadResult, o: CrawlLoadOptions): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const row = (f: RunFigures) =>
    `| ${f.threads} | ${f.pagesPerSecond.toFixed(1)} | ${f.failed} | ${ms(f.idle.health)} / ${ms(f.loaded.health)} | ${ms(f.idle.usage)} / ${ms(f.loaded.usage)} |`;
  return [
    `${r.pass ? "PASS" : "MISS"}  crawl-load: ${r.pages} pages, ${o.connections} concurrent crawls, ${o.durationSeconds} s per run`,
    "| parsing threads | pages/s | failed | /health p99 idle / loaded | /usage p99 idle / loaded |",
    "|---|---|---|---|---|",
    row(r.single),
    row(r.pool),
    `pages/s, pool / one thread: ${r.throughputRatio.toFixed(2)}x (target >= 1.5x)`,
    `p99 loaded / idle: /health ${r.healthRatio.toFixed(2)}x, /usage ${r.usageRatio.toFixed(2)}x (target <= 2x)`,
  ].join("\n");
}
