// `plumbline bench crawl-quality` (issue 13): serves an article-extraction dataset on loopback, crawls every page
// through a target's POST /crawl, and scores the returned Markdown with the benchmark's metric (article-metric.ts).
// Without a target it starts the reference as a child process through its CLI (load/ is a client and never imports
// it), on a throw-away SQLite directory. Crawls run a few at a time; a 429 pauses every worker for its Retry-After.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plumblineEntry } from "@plumbline-kit/cli/launch";
import { type Peer, startProcess, stopPeers } from "@plumbline-kit/tools/load/peers/peer-processes";
import { type ArticlePage, DatasetError, readArticleDataset } from "./article-dataset.ts";
import { aggregate, type Figures, markdownToText, scorePage } from "./article-metric.ts";
import { serveDataset } from "./dataset-server.ts";

export interface CrawlQualityOptions {
  /** a folder in the benchmark's layout: ground-truth.json and html/<id>.html.gz */
  data: string;
  /** the target's base URL; without it the reference is started for the run */
  target?: string;
  /** the target's API key (required with `target`) */
  apiKey?: string;
  /** crawls in flight at once (default 4) */
  concurrency?: number;
  /** per crawl, seconds (default 60) */
  timeoutSeconds?: number;
  /** floors: the run fails (exit 1) when a figure is below its floor */
  floor?: Partial<Pick<Figures, "f1" | "precision" | "recall">>;
  /** how many of the worst pages the result lists (default 10) */
  worst?: number;
  /** called after each page */
  onProgress?: (done: number, total: number) => void;
}

export interface PageResult {
  id: string;
  /** where the page was published */
  url: string;
  precision: number;
  recall: number;
  f1: number;
  /** the target's HTTP status for the crawl (0: no answer) */
  status: number;
  /** why the page scored as nothing extracted, when the crawl failed */
  error?: string;
}

export interface CrawlQualityResult {
  at: string;
  data: string;
  target: string;
  /** true when the bench started the reference itself */
  startedReference: boolean;
  figures: Figures;
  failed: number;
  seconds: number;
  floor: Partial<Pick<Figures, "f1" | "precision" | "recall">>;
  /** figures below their floor, e.g. "f1 0.9412 < 0.96" */
  breaches: string[];
  pass: boolean;
  worst: PageResult[];
  pages: PageResult[];
}

export type CrawlQualityRun =
  | { ok: true; exitCode: 0 | 1; result: CrawlQualityResult }
  | { ok: false; exitCode: 2; error: string };

class CannotRun extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds to wait from a Retry-After header (delta seconds or an HTTP date), capped at a minute. */
function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Math.min(60_000, Math.max(250, Number.isFinite(ms) ? ms : 1000));
}

interface Crawler {
  crawl(url: string): Promise<{ status: number; content?: string; error?: string }>;
}

function crawler(target: string, apiKey: string, timeoutMs: number): Crawler {
  let resumeAt = 0; // shared: one 429 holds back every worker
  return {
    async crawl(url) {
      for (let attempt = 0; attempt < 6; attempt++) {
        const wait = resumeAt - Date.now();
        if (wait > 0) await sleep(wait);
        let res: Response;
        try {
          res = await fetch(`${target}/crawl`, {
            method: "POST",
            headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
            body: JSON.stringify({ url }),
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (err) {
          const e = err as Error & { cause?: { code?: string } };
          if (e.cause?.code === "ECONNREFUSED") throw new CannotRun(`cannot reach ${target}: connection refused`);
          return { status: 0, error: e.name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : e.message };
        }
        const text = await res.text();
        if (res.status === 429) {
          resumeAt = Math.max(resumeAt, Date.now() + retryAfterMs(res.headers.get("retry-after")));
          continue;
        }
        if (res.status === 401 || res.status === 403)
          throw new CannotRun(`the target refused the API key (${res.status}): ${text.slice(0, 200)}`);
        if (res.status !== 200) return { status: res.status, error: `HTTP ${res.status}: ${text.slice(0, 200)}` };
        try {
          const content = (JSON.parse(text) as { results?: { content?: unknown } }).results?.content;
          if (typeof content !== "string") return { status: 200, error: "the answer has no results.content" };
          return { status: 200, content };
        } catch {
          return { status: 200, error: "the answer is not JSON" };
        }
      }
      return { status: 429, error: "still rate-limited after 6 attempts" };
    },
  };
}

async function startReference(apiKey: string): Promise<{ peer: Peer; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), "plumbline-crawl-quality-"));
  try {
    const { child, match } = await startProcess(
      process.execPath,
      [
        plumblineEntry(),
        "reference",
        "--port",
        "0",
        "--allow-private-network",
        "--data-dir",
        dataDir,
        "--key",
        `${apiKey}:1000000000`,
        // the bench's own account: a limit far above what a few crawls at a time can reach
        "--rate-limit",
        "1000000",
      ],
      /listening on (http:\/\/\S+)/,
    );
    return { peer: { name: "plumbline reference", url: match[1], child }, dataDir };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new CannotRun(`the reference did not start: ${(err as Error).message}`);
  }
}

async function scorePages(
  pages: readonly ArticlePage[],
  pageUrl: (p: ArticlePage) => string,
  client: Crawler,
  concurrency: number,
  onProgress?: (done: number, total: number) => void,
): Promise<PageResult[]> {
  const results: PageResult[] = new Array(pages.length);
  let next = 0;
  let done = 0;
  async function worker() {
    while (next < pages.length) {
      const i = next++;
      const page = pages[i];
      const answer = await client.crawl(pageUrl(page));
      const s = scorePage(answer.content === undefined ? "" : markdownToText(answer.content), page.articleBody);
      results[i] = {
        id: page.id,
        url: page.url,
        precision: s.precision,
        recall: s.recall,
        f1: s.f1,
        status: answer.status,
        ...(answer.error ? { error: answer.error } : {}),
      };
      onProgress?.(++done, pages.length);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, pages.length) }, worker));
  return results;
}

function breachesOf(figures: Figures, floor: CrawlQualityOptions["floor"] = {}): string[] {
  const out: string[] = [];
  for (const k of ["f1", "precision", "recall"] as const) {
    const min = floor[k];
    if (min !== undefined && figures[k] < min) out.push(`${k} ${figures[k].toFixed(4)} < ${min}`);
  }
  return out;
}

export async function benchCrawlQuality(options: CrawlQualityOptions): Promise<CrawlQualityRun> {
  const started = Date.now();
  const concurrency = options.concurrency ?? 4;
  const timeoutSeconds = options.timeoutSeconds ?? 60;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    return { ok: false, exitCode: 2, error: "concurrency takes 1..64" };
  if (!(timeoutSeconds >= 1 && timeoutSeconds <= 600))
    return { ok: false, exitCode: 2, error: "timeoutSeconds takes 1..600" };
  if (options.target !== undefined && !/^https?:\/\/[^\s/]+/.test(options.target))
    return { ok: false, exitCode: 2, error: `--target takes an http(s) URL, not "${options.target}"` };
  if (options.target !== undefined && !options.apiKey)
    return { ok: false, exitCode: 2, error: "--target needs --api-key" };
  let pages: ArticlePage[];
  try {
    pages = readArticleDataset(options.data);
  } catch (err) {
    if (err instanceof DatasetError) return { ok: false, exitCode: 2, error: err.message };
    throw err;
  }
  const apiKey = options.apiKey ?? `bench-${randomBytes(12).toString("hex")}`;
  let reference: { peer: Peer; dataDir: string } | undefined;
  const server = await serveDataset(pages);
  try {
    if (!options.target) reference = await startReference(apiKey);
    const target = (options.target ?? reference?.peer.url ?? "").replace(/\/+$/, "");
    const client = crawler(target, apiKey, timeoutSeconds * 1000);
    const results = await scorePages(pages, server.pageUrl, client, concurrency, options.onProgress);
    const figures = aggregate(results);
    const floor = options.floor ?? {};
    const breaches = breachesOf(figures, floor);
    const result: CrawlQualityResult = {
      at: new Date(started).toISOString(),
      data: options.data,
      target,
      startedReference: reference !== undefined,
      figures,
      failed: results.filter((r) => r.error).length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      floor,
      breaches,
      pass: breaches.length === 0,
      worst: [...results].sort((a, b) => a.f1 - b.f1 || a.id.localeCompare(b.id)).slice(0, options.worst ?? 10),
      pages: results,
    };
    return { ok: true, exitCode: result.pass ? 0 : 1, result };
  } catch (err) {
    if (err instanceof CannotRun) return { ok: false, exitCode: 2, error: err.message };
    throw err;
  } finally {
    await server.close();
    if (reference) {
      const { child } = reference.peer;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        stopPeers([reference.peer]);
        await Promise.race([exited, sleep(10_000)]);
      }
      rmSync(reference.dataDir, { recursive: true, force: true });
    }
  }
}
