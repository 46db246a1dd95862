// Benchmark (not a test; issue 11): warm POST /screenshot of a simple local page on the reference, p50 and p95
// over sequential calls, and screenshots per second at concurrency 4. Target: p50 <= 150 ms.
// Run: node bin/plumbline.js bench screenshot [--calls N] [--concurrency N]  → reports/bench/screenshot.json
// load/ is a client: the reference runs as its own process, started through its CLI, never imported.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { plumblineEntry } from "@plumbline-kit/cli/launch";
import { startProcess, stopPeers } from "@plumbline-kit/tools/load/peers/peer-processes";

const KEY = "bench-key";
const PAGE = `<!doctype html><html><head><title>Bench</title><style>body{font:16px sans-serif;margin:40px}
  .card{background:#1f6feb;color:#fff;padding:24px;border-radius:8px}</style></head>
  <body><h1>Plumbline</h1><div class="card">A simple page to shoot.</div><p>Some text below the card.</p></body></html>`;

export interface ScreenshotBenchOptions {
  /** sequential calls measured (default 50) */
  calls?: number;
  /** parallel callers for the throughput figure (default 4) */
  concurrency?: number;
  /** calls at that concurrency (default 40) */
  concurrentCalls?: number;
  /** the reference's --browser-spares (default: the reference's own) */
  spares?: number;
  /** the pause between two sequential calls (default 100 ms) */
  gapMs?: number;
}

export interface ScreenshotBenchResult {
  at: string;
  calls: number;
  /** the spares asked of the reference (null: its default) */
  spares: number | null;
  gapMs: number;
  p50Ms: number;
  p95Ms: number;
  concurrency: number;
  screenshotsPerSecond: number;
  failures: number;
  /** the machine's 1-minute load average at the start and end, and its cores: the machine is shared */
  conditions: { loadBefore: number; loadAfter: number; cores: number };
  target: { p50Ms: number };
  pass: boolean;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export async function benchScreenshot(o: ScreenshotBenchOptions = {}): Promise<ScreenshotBenchResult> {
  const calls = o.calls ?? 50;
  const concurrency = o.concurrency ?? 4;
  const concurrentCalls = o.concurrentCalls ?? 40;
  const gapMs = o.gapMs ?? 100;
  const loadBefore = loadavg()[0];
  const site = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const dir = mkdtempSync(join(tmpdir(), "plumbline-bench-shot-"));
  const { child, match } = await startProcess(
    process.execPath,
    [
      plumblineEntry(),
      "reference",
      "--port",
      "0",
      "--data-dir",
      dir,
      "--key",
      `${KEY}:1000000000`,
      "--rate-limit",
      "0",
      "--allow-private-network",
      "--browser-contexts",
      String(concurrency),
      ...(o.spares === undefined ? [] : ["--browser-spares", String(o.spares)]),
    ],
    /listening on (http:\/\/\S+)/,
  );
  const peer = { name: "reference", url: match[1], child };
  let failures = 0;
  const shot = async () => {
    const started = performance.now();
    const res = await fetch(`${peer.url}/screenshot`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url: pageUrl, viewport: { width: 1280, height: 800 } }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) failures++;
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < 5; i++) await shot(); // warm: the browser launched, spare pages ready
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      times.push(await shot());
      // a caller that waits a moment between calls, as a client would; the pool reopens a spare context meanwhile
      await new Promise((r) => setTimeout(r, gapMs));
    }
    times.sort((a, b) => a - b);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < concurrentCalls) await shot();
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const p50Ms = quantile(times, 0.5);
    return {
      at: new Date().toISOString(),
      calls,
      spares: o.spares ?? null,
      gapMs,
      p50Ms: Math.round(p50Ms),
      p95Ms: Math.round(quantile(times, 0.95)),
      concurrency,
      screenshotsPerSecond: Number((concurrentCalls / seconds).toFixed(2)),
      failures,
      conditions: { loadBefore, loadAfter: loadavg()[0], cores: cpus().length },
      target: { p50Ms: 150 },
      pass: failures === 0 && p50Ms <= 150,
    };
  } finally {
    stopPeers([peer]);
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderScreenshotBench(r: ScreenshotBenchResult): string {
  return [
    `warm POST /screenshot (png 1280×800, simple local page), ${r.calls} sequential calls ${r.gapMs} ms apart: p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms (target p50 <= ${r.target.p50Ms} ms)`,
    `concurrency ${r.concurrency}: ${r.screenshotsPerSecond} screenshots/s; ${r.failures} failed calls`,
    `machine: ${r.conditions.cores} cores, 1-min load ${r.conditions.loadBefore.toFixed(1)} before, ${r.conditions.loadAfter.toFixed(1)} after`,
    r.pass ? "target met" : "target MISSED",
  ].join("\n");
}

export function writeScreenshotBench(r: ScreenshotBenchResult): string {
  const dir = join(process.cwd(), "reports/bench");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "screenshot.json");
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  return file;
}
