// `plumbline bench extract-stall` (issue 38): what a hostile page does to the reference while one call parses it.
// The pages of test-support/hostile-pages.ts are served on loopback and sent through /extract (and /sitemap,
// /crawl, /trending) of a reference started in this process, while a worker thread samples /health every 50 ms on
// an event loop of its own, so a stalled reference shows as a slow /health, not as a sampler that stopped. Prints
// /health's p99 at idle, its p99 and max during each hostile call, and the call's status, duration and charge.
import { mkdtempSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { startReference } from "@plumbline-kit/reference/start-reference";
import { serveSite } from "@plumbline-kit/reference/test/fixture-site";
import { HOSTILE_PAGES } from "../../../test-support/hostile-pages.ts";

export interface ExtractStallOptions {
  /** calls of each case (default 3); /health samples of every round count */
  rounds?: number;
  /** seconds of idle sampling before the calls (default 3) */
  idleSeconds?: number;
}

export interface StallCase {
  name: string;
  operation: string;
  /** each round's answer status */
  statuses: number[];
  /** the slowest round's duration */
  maxCallMs: number;
  /** credits taken over every round, and ledger rows written */
  credits: number;
  ledgerRows: number;
  /** /health samples that overlapped a call of this case */
  samples: number;
  healthP99Ms: number;
  healthMaxMs: number;
  /** a refused call (4xx/5xx) took credits or wrote a ledger row */
  refusedCharged: boolean;
}

export interface ExtractStallResult {
  idle: { samples: number; p99Ms: number; maxMs: number };
  cases: StallCase[];
  /** the verdict: /health max within 1 s during every call, and no refused call charged */
  ok: boolean;
}

export const HEALTH_MAX_MS = 1000;
const KEY = "extract-stall-bench";

// the sampler: one /health at a time, one every 50 ms, each timed on this worker's clock in absolute milliseconds
const SAMPLER = `
const { parentPort, workerData } = require("node:worker_threads");
const now = () => performance.timeOrigin + performance.now();
let stop = false;
parentPort.on("message", () => { stop = true; });
(async () => {
  const samples = [];
  while (!stop) {
    const sent = now();
    try { const r = await fetch(workerData.url); await r.arrayBuffer(); } catch {}
    const answered = now();
    samples.push([sent, answered]);
    const wait = 50 - (answered - sent);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  parentPort.postMessage(samples);
})();
`;

const now = () => performance.timeOrigin + performance.now();

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

function sampler(url: string) {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { url: `${url}/health` } });
  const done = new Promise<Array<[number, number]>>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const samples = await done;
      await worker.terminate();
      return samples;
    },
  };
}

export async function benchExtractStall(o: ExtractStallOptions = {}): Promise<ExtractStallResult> {
  const rounds = o.rounds ?? 3;
  const idleSeconds = o.idleSeconds ?? 3;
  const page =
    (body: string, type = "text/html; charset=utf-8") =>
    (_req: unknown, res: ServerResponse) => {
      res.writeHead(200, { "content-type": type });
      res.end(body);
    };
  const p = HOSTILE_PAGES;
  const site = await serveSite({
    "/nested.html": page(p.nestedDivs),
    "/unclosed.html": page(p.unclosedDivs),
    "/attribute.html": page(p.hugeAttribute),
    "/lists.html": page(p.siblingLists),
    "/robots.txt": { type: "text/plain", body: "User-agent: *\nSitemap: {{BASE}}/deep-sitemap.xml\n" },
    "/deep-sitemap.xml": page(p.deepSitemap, "application/xml"),
    "/trending": page(p.nestedDivs),
    "/api/query": page(p.wideAtomFeed, "application/atom+xml"),
  });
  const dir = mkdtempSync(join(tmpdir(), "plumbline-stall-bench-"));
  const ref = await startReference({
    port: 0,
    dataDir: dir,
    allowPrivateNetwork: true,
    keys: [{ key: KEY, credits: 1_000_000 }],
    rateLimits: { perAccount: 0 },
    trending: { githubUrl: site.url },
    searchUpstreams: { arxivUrl: site.url },
  });
  const cases: Array<{ name: string; operation: string; body: unknown }> = [
    { name: "100,000 nested divs", operation: "/extract", body: { url: `${site.url}/nested.html` } },
    { name: "200,000 unclosed divs", operation: "/extract", body: { url: `${site.url}/unclosed.html` } },
    { name: "a 4.5 MB attribute", operation: "/extract", body: { url: `${site.url}/attribute.html` } },
    { name: "20,000 sibling lists", operation: "/extract", body: { url: `${site.url}/lists.html` } },
    { name: "200,000 nested <url>s", operation: "/sitemap", body: { url: `${site.url}/nested.html` } },
    { name: "100,000 nested divs (all)", operation: "/sitemap", body: { url: `${site.url}/nested.html`, type: "all" } },
    {
      name: "100,000 nested divs",
      operation: "/crawl",
      body: { url: `${site.url}/nested.html`, enableFallback: false },
    },
    { name: "100,000 nested divs (GitHub)", operation: "/trending", body: { search_service: "github" } },
    {
      name: "an arXiv answer of 100,000 entries",
      operation: "/search",
      body: { query: "t", search_service: "arxiv", max_results: 3 },
    },
  ];
  try {
    const accountId = (await ref.accounts.authenticate(KEY))?.id as string;
    const charges = async () => ({
      balance: await ref.accounts.balance(accountId),
      ledger: (await ref.accounts.ledger(accountId)).length,
    });
    const call = async (operation: string, body: unknown) => {
      const r = await fetch(`${ref.url}${operation}`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await r.arrayBuffer();
      return r.status;
    };
    // a first call of each operation loads what it needs, so the rounds measure parsing, not loading
    for (const c of cases) await call(c.operation, c.body);
    const sampling = sampler(ref.url);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleEnd = now();
    const windows: Array<{ index: number; start: number; end: number }> = [];
    const outcomes = cases.map(() => ({ statuses: [] as number[], maxCallMs: 0, credits: 0, ledgerRows: 0 }));
    let refusedCharged = cases.map(() => false);
    for (let round = 0; round < rounds; round++) {
      for (const [index, c] of cases.entries()) {
        const before = await charges();
        const start = now();
        const status = await call(c.operation, c.body);
        const end = now();
        const after = await charges();
        windows.push({ index, start, end });
        const out = outcomes[index];
        out.statuses.push(status);
        out.maxCallMs = Math.max(out.maxCallMs, end - start);
        out.credits += before.balance - after.balance;
        out.ledgerRows += after.ledger - before.ledger;
        if (status >= 400 && (before.balance !== after.balance || before.ledger !== after.ledger))
          refusedCharged = refusedCharged.map((v, i) => v || i === index);
        // the sampler's next /health falls between calls too
        await new Promise((r) => setTimeout(r, 60));
      }
    }
    const samples = await sampling.stop();
    const latency = ([sent, answered]: [number, number]) => answered - sent;
    const idle = samples.filter(([, answered]) => answered <= idleEnd).map(latency);
    const result: StallCase[] = cases.map((c, index) => {
      const during = samples
        .filter(([sent, answered]) => windows.some((w) => w.index === index && sent <= w.end && answered >= w.start))
        .map(latency);
      return {
        name: c.name,
        operation: c.operation,
        ...outcomes[index],
        samples: during.length,
        healthP99Ms: percentile(during, 0.99),
        healthMaxMs: during.length ? Math.max(...during) : 0,
        refusedCharged: refusedCharged[index],
      };
    });
    return {
      idle: { samples: idle.length, p99Ms: percentile(idle, 0.99), maxMs: idle.length ? Math.max(...idle) : 0 },
      cases: result,
      ok: result.every((c) => c.healthMaxMs <= HEALTH_MAX_MS && !c.refusedCharged),
    };
  } finally {
    await ref.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A line for idle /health, one per case, and the verdict. */
export function renderExtractStallBench(r: ExtractStallResult): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const lines = [`/health idle (${r.idle.samples} samples): p99 ${ms(r.idle.p99Ms)}, max ${ms(r.idle.maxMs)}`];
  for (const c of r.cases) {
    const statuses = [...new Set(c.statuses)].join("/");
    lines.push(
      `${c.operation} ${c.name}: ${statuses} in ${ms(c.maxCallMs)} at most, ${c.credits} credits (${c.ledgerRows} ledger rows)` +
        `; /health during it (${c.samples} samples) p99 ${ms(c.healthP99Ms)}, max ${ms(c.healthMaxMs)}` +
        (c.refusedCharged ? "; REFUSED BUT CHARGED" : ""),
    );
  }
  lines.push(
    r.ok
      ? `ok: /health max within ${HEALTH_MAX_MS} ms during every call, no refused call charged`
      : `FAILED: /health max over ${HEALTH_MAX_MS} ms during a call, or a refused call was charged`,
  );
  return lines.join("\n");
}
