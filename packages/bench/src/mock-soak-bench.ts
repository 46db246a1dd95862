// `plumbline bench mock-soak`: does a long-running mock keep bounded memory (issue 38)? The mock runs as a child
// process (`plumbline mock`, the command a developer or a CI job leaves running); this process drives a mixed
// workload at a steady rate: searches (single and batch, many distinct queries), news, crawls (single and batch),
// sitemap, extract, deepcrawl tasks submitted, polled to completion and their zips fetched, usage, 402s (an account
// with no credits), 401s, invalid requests (400/422), health and admin calls; and samples the child's RSS from
// /proc/PID/status (VmRSS). The verdict: RSS at the end within 10% of RSS after the warm-up (2 minutes by default),
// each the peak over the minute before it (single samples swing with V8's collections).
// Lives in bench/ because it starts the mock with the test glue's launcher (test-support/mock-process.ts).
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { startMockProcess } from "../../../test-support/mock-process.ts";

export interface MockSoakOptions {
  /** minutes of the run (default 10) */
  minutes?: number;
  /** requests per second (default 60) */
  rate?: number;
  /** seconds after which the RSS is taken as the baseline (default 120) */
  warmUpSeconds?: number;
  /** seconds between RSS samples (default 5) */
  sampleSeconds?: number;
  /** called with each sample as it is taken (progress) */
  onSample?: (s: RssSample) => void;
}

export interface RssSample {
  atSeconds: number;
  rssKb: number;
  requests: number;
}

export interface MockSoakResult {
  minutes: number;
  rate: number;
  warmUpSeconds: number;
  requests: number;
  /** responses by status code; `error` counts requests that got no answer (connection or timeout) */
  statuses: Record<string, number>;
  /** requests not sent because too many were still waiting (the mock fell behind the rate) */
  skipped: number;
  deepcrawl: { submitted: number; completed: number; failed: number; zips: number };
  samples: RssSample[];
  rssStartKb: number;
  /** the RSS figures below are the peak over this many seconds before the point */
  plateauWindowSeconds: number;
  rssAtWarmUpKb: number;
  rssEndKb: number;
  /** the single samples at those points */
  rssSampleAtWarmUpKb: number;
  rssSampleEndKb: number;
  rssMaxKb: number;
  /** rssEnd / rssAtWarmUp */
  ratio: number;
  /** the target: RSS at the end at most 10% above RSS after the warm-up */
  flat: boolean;
  /** GET /__mock/stats at the end */
  stores: Record<string, { count: number; max: number | null; [k: string]: unknown }>;
  machine: { cpus: number; loadAvg1m: number };
}

export const SOAK_TARGET_RATIO = 1.1;
const PLATEAU_WINDOW_S = 60;
const MAX_IN_FLIGHT = 256;
const KEY = "soak-key";
const BROKE = "soak-broke";

const WORDS = (
  "rust async runtime fastify plugin openapi webhooks postgres index vector search crawler sitemap robots " +
  "markdown zip archive token oauth payment ledger credit batch retry timeout stream parser worker cache"
).split(" ");

function rssKb(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]);
}

export async function benchMockSoak(o: MockSoakOptions = {}): Promise<MockSoakResult> {
  const minutes = o.minutes ?? 10;
  const rate = o.rate ?? 60;
  const warmUpSeconds = o.warmUpSeconds ?? 120;
  const sampleSeconds = o.sampleSeconds ?? 5;
  if (warmUpSeconds >= minutes * 60) throw new RangeError("the warm-up must end before the run does");
  const mock = await startMockProcess(["--key", `${KEY}:1000000000000`, "--key", `${BROKE}:0`, "--rate-limit", "0"]);
  try {
    const pid = mock.serverPid();
    const base = mock.url;
    const statuses: Record<string, number> = {};
    const deepcrawl = { submitted: 0, completed: 0, failed: 0, zips: 0 };
    const pending: string[] = []; // deepcrawl tasks not yet seen finished, oldest first
    let requests = 0;
    let skipped = 0;
    let inFlight = 0;
    let n = 0;

    const words = (i: number, k: number) => Array.from({ length: k }, (_, j) => WORDS[(i * 7 + j * 13) % WORDS.length]);
    // distinct queries and URLs without end (the memo's bound is what is measured), and some repeated ones
    const query = (i: number) => `${words(i, 3).join(" ")} ${i % 3 === 0 ? i % 50 : i}`;
    const page = (i: number) => `https://site${i % 97}.example.com/${words(i, 2).join("/")}/${i}`;

    async function call(
      method: string,
      path: string,
      o2: { body?: unknown; raw?: string; key?: string | null } = {},
    ): Promise<{ status: number; body: unknown }> {
      requests++;
      const headers: Record<string, string> = {};
      const key = o2.key === undefined ? KEY : o2.key;
      if (key) headers.authorization = `Bearer ${key}`;
      const payload = o2.raw ?? (o2.body === undefined ? undefined : JSON.stringify(o2.body));
      if (payload !== undefined) headers["content-type"] = "application/json";
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(30_000),
        });
        const buf = Buffer.from(await res.arrayBuffer());
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const json = res.headers.get("content-type")?.includes("json");
        return { status: res.status, body: json ? JSON.parse(buf.toString("utf8")) : buf };
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
        return { status: 0, body: null };
      }
    }

    async function poll() {
      const taskId = pending.shift();
      if (!taskId) return call("GET", "/health", { key: null });
      const r = await call("GET", `/deepcrawl/status/${taskId}`);
      const s = r.body as { status?: string; zipUrl?: string | null } | null;
      if (s?.status === "completed") {
        deepcrawl.completed++;
        if (s.zipUrl) {
          const zip = await call("GET", new URL(s.zipUrl).pathname + new URL(s.zipUrl).search, { key: null });
          if (zip.status === 200) deepcrawl.zips++;
        }
      } else if (s?.status === "failed") deepcrawl.failed++;
      else if (r.status !== 404) pending.push(taskId);
    }

    // one cycle of 21 requests: the mix of a client team's suite, a deepcrawl every cycle
    const mix: Array<(i: number) => Promise<unknown>> = [
      (i) => call("POST", "/search", { body: { query: query(i), max_results: 5 } }),
      (i) => call("POST", "/search", { body: { query: query(i + 1) } }),
      (i) => call("POST", "/search", { body: { query: query(i % 40) } }),
      (i) => call("POST", "/search", { body: [{ query: query(i) }, { query: query(i + 2), max_results: 3 }] }),
      (i) => call("POST", "/news", { body: { query: query(i) } }),
      (i) => call("POST", "/crawl", { body: { url: page(i) } }),
      (i) => call("POST", "/crawl", { body: { url: page(i % 30) } }),
      (i) => call("POST", "/crawl", { body: [{ url: page(i) }, { url: page(i + 1) }] }),
      (i) => call("POST", "/sitemap", { body: { url: `https://site${i % 97}.example.com/` } }),
      (i) => call("POST", "/extract", { body: { url: page(i), prompt: "the title" } }),
      async (i) => {
        const r = await call("POST", "/deepcrawl", { body: { url: `https://docs${i % 53}.example.org/` } });
        const id = (r.body as { taskId?: string } | null)?.taskId;
        if (r.status === 202 && id) {
          deepcrawl.submitted++;
          pending.push(id);
        }
      },
      () => poll(),
      () => poll(),
      () => poll(),
      () => call("GET", "/usage"),
      (i) => call("POST", "/search", { body: { query: query(i) }, key: BROKE }), // 402
      (i) => call("POST", "/search", { body: { query: query(i) }, key: null }), // 401/402 without a credential
      () => call("POST", "/search", { body: { query: "", max_results: 0 } }), // 400/422
      () => call("POST", "/crawl", { raw: '{"url": "https://example.com/' }), // malformed JSON
      () => call("GET", "/health", { key: null }),
      (i) => call("GET", i % 2 ? "/__mock/stats" : "/__mock/journal?limit=20", { key: null }),
    ];

    const startedAt = Date.now();
    const rssStartKb = rssKb(pid);
    const samples: RssSample[] = [{ atSeconds: 0, rssKb: rssStartKb, requests: 0 }];
    const endAt = startedAt + minutes * 60_000;
    const gapMs = 1000 / rate;
    await new Promise<void>((resolve) => {
      let nextSample = startedAt + sampleSeconds * 1000;
      // paced by the wall clock: each tick sends what is due, so a late timer does not lower the rate
      const timer = setInterval(() => {
        const now = Date.now();
        const due = Math.floor((Math.min(now, endAt) - startedAt) / gapMs);
        while (n < due) {
          const i = n++;
          if (inFlight >= MAX_IN_FLIGHT) {
            skipped++;
            continue;
          }
          inFlight++;
          mix[i % mix.length](Math.floor(i / mix.length)).finally(() => {
            inFlight--;
          });
        }
        if (now >= nextSample) {
          const s = { atSeconds: Math.round((now - startedAt) / 1000), rssKb: rssKb(pid), requests };
          samples.push(s);
          o.onSample?.(s);
          nextSample += sampleSeconds * 1000;
        }
        if (now >= endAt && inFlight === 0) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    const last = { atSeconds: Math.round((Date.now() - startedAt) / 1000), rssKb: rssKb(pid), requests };
    if (last.atSeconds > samples[samples.length - 1].atSeconds) samples.push(last);
    const stats = await call("GET", "/__mock/stats", { key: null });
    // the plateau, not one sample: V8 gives memory back after a major collection, so single samples of a steady
    // mock swing by tens of MB (207-320 MB in one run); the peak over the window before each point is what it holds
    const windowS = Math.min(PLATEAU_WINDOW_S, warmUpSeconds);
    const peak = (from: number, to: number) =>
      Math.max(...samples.filter((s) => s.atSeconds > from && s.atSeconds <= to).map((s) => s.rssKb));
    const atWarmUp = samples.find((s) => s.atSeconds >= warmUpSeconds) ?? last;
    const rssAtWarmUpKb = peak(warmUpSeconds - windowS, atWarmUp.atSeconds);
    const rssEndKb = peak(last.atSeconds - windowS, last.atSeconds);
    const ratio = rssEndKb / rssAtWarmUpKb;
    return {
      minutes,
      rate,
      warmUpSeconds,
      requests,
      statuses,
      skipped,
      deepcrawl,
      samples,
      rssStartKb,
      plateauWindowSeconds: windowS,
      rssAtWarmUpKb,
      rssEndKb,
      rssSampleAtWarmUpKb: atWarmUp.rssKb,
      rssSampleEndKb: last.rssKb,
      rssMaxKb: Math.max(...samples.map((s) => s.rssKb)),
      ratio,
      flat: ratio <= SOAK_TARGET_RATIO,
      stores: (stats.body as { stores: MockSoakResult["stores"] } | null)?.stores ?? {},
      machine: { cpus: cpus().length, loadAvg1m: loadavg()[0] },
    };
  } finally {
    await mock.stop();
  }
}

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

export function renderMockSoakBench(r: MockSoakResult): string {
  const lines = [
    `mock soak: ${r.minutes} min at ${r.rate} req/s, ${r.requests.toLocaleString("en-US")} requests (${r.skipped} skipped: mock behind), machine ${r.machine.cpus} CPUs, load ${r.machine.loadAvg1m.toFixed(2)}`,
    `  statuses: ${Object.entries(r.statuses)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ")}`,
    `  deepcrawl: ${r.deepcrawl.submitted} submitted, ${r.deepcrawl.completed} completed, ${r.deepcrawl.failed} failed, ${r.deepcrawl.zips} zips fetched`,
    `  RSS (peak of the ${r.plateauWindowSeconds} s before): at ${r.warmUpSeconds} s ${mb(r.rssAtWarmUpKb)}, at the end ${mb(r.rssEndKb)}; end / ${r.warmUpSeconds} s = ${r.ratio.toFixed(3)} (target <= ${SOAK_TARGET_RATIO}): ${r.flat ? "flat" : "GROWING"}`,
    `  RSS samples: start ${mb(r.rssStartKb)}, at ${r.warmUpSeconds} s ${mb(r.rssSampleAtWarmUpKb)}, end ${mb(r.rssSampleEndKb)}, max ${mb(r.rssMaxKb)}`,
    "  RSS by minute: " +
      r.samples
        .filter(
          (s, i) =>
            i === 0 ||
            i === r.samples.length - 1 ||
            Math.floor(s.atSeconds / 60) !== Math.floor(r.samples[i - 1].atSeconds / 60),
        )
        .map((s) => `${s.atSeconds}s ${mb(s.rssKb)}`)
        .join(", "),
    "  stores (count / bound):",
  ];
  for (const [name, s] of Object.entries(r.stores)) {
    if (!s) continue;
    const { count, max, ...rest } = s;
    const extra = Object.entries(rest)
      .filter(([k]) => k !== "note")
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    lines.push(`    ${name}: ${count} / ${max ?? "-"}${extra ? ` (${extra})` : ""}`);
  }
  return lines.join("\n");
}
