// Parsing off the event loop (issue 12): HTML parsing, Readability and Markdown, link extraction and sitemap XML run
// in a piscina pool of worker threads sized to the cores. Each task has a time cap counted from when a worker
// starts it, in the worker's CPU time where Linux shows it (and a wall-time cap on its wait in the queue); past it
// piscina terminates that worker and starts another,
// and the call fails as a value. Each worker has a heap cap, so one page cannot take the process to gigabytes: a
// worker that runs out dies alone and that call fails. D-parse-limits.
import { availableParallelism } from "node:os";
import type { Schemas } from "@plumbline-kit/contract";
import type { EngineResult } from "@plumbline-kit/platform/engines";
import { Piscina } from "piscina";
import type { ArxivEntry } from "../../search/upstream/arxiv-feed.ts";
import type { ExtractedPage } from "../html-extract.ts";
import { DEFAULT_HTML_LIMITS, type HtmlLimits } from "../html-guard.ts";
import type { SitemapDocument } from "../sitemap-parse.ts";
import type { PageBody, PageReading, ParseOutcome, ParseTask, ReadPage } from "./parse-tasks.ts";
import { threadCpuMs } from "./thread-cpu-time.ts";

/** A task's CPU-time cap holds within this many times the cap in wall time (a machine too busy to give it any). */
const CPU_CAP_WALL_FACTOR = 6;

/** What the engines ask of a parser; the pool and the inline parser both give it. */
export interface PageParser {
  extract(
    html: string,
    url: string,
    contentLanguage?: string,
    signal?: AbortSignal,
  ): Promise<EngineResult<ExtractedPage>>;
  links(html: string, url: string, signal?: AbortSignal): Promise<EngineResult<string[]>>;
  /** a fetched body decoded, checked for readability and, for HTML, extracted */
  page(body: PageBody, signal?: AbortSignal): Promise<EngineResult<ReadPage>>;
  /** the links of a fetched HTML body, decoded in the pool too */
  pageLinks(body: PageBody, signal?: AbortSignal): Promise<EngineResult<string[]>>;
  sitemap(body: string, signal?: AbortSignal): Promise<EngineResult<SitemapDocument>>;
  /** /extract's reading of a fetched body: its facts, and its Markdown when `markdown` (issue 38) */
  facts(body: PageBody, markdown: boolean, signal?: AbortSignal): Promise<EngineResult<PageReading>>;
  /** the repositories listed on a GitHub trending page (an upstream's page: guarded as a target's) */
  githubTrending(
    body: Uint8Array,
    baseUrl: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<EngineResult<Schemas["TrendingResult"][]>>;
  /** an arXiv API answer's Atom feed (an upstream's XML), its first `maxEntries` entries; null when it is not one */
  arxivFeed(
    body: string,
    maxEntries: number,
    signal?: AbortSignal,
  ): Promise<EngineResult<{ entry?: ArxivEntry[] } | null>>;
  close(): Promise<void>;
}

export interface ParsePoolOptions {
  /** worker threads (default: the cores available) */
  threads?: number;
  /** one task's parsing time at most (default 10 s) */
  taskTimeoutMs?: number;
  /** one task's wait in the queue at most (default 30 s) */
  queueTimeoutMs?: number;
  /** tasks waiting at most; past it a call fails at once (default 8 per thread: each holds a page of up to 5 MiB) */
  maxQueue?: number;
  /** each worker's V8 old-generation heap, MiB (default 256, at least 48) */
  heapMb?: number;
  limits?: Partial<HtmlLimits>;
  /** the workers' nice value, 0..19 (default 19): the event loop runs first (the CLI lowers its other threads too) */
  nice?: number;
}

export const DEFAULT_PARSE_POOL = { taskTimeoutMs: 10_000, queueTimeoutMs: 30_000, heapMb: 256, nice: 19 };

const failed = (message: string) => ({ ok: false, code: "PLB_UPSTREAM_FAILED", message }) as const;

/** A guard refusal, in the words a caller of /crawl reads. */
function refusal(url: string, reason: string) {
  return failed(`The page ${url} has ${reason}; this service parses pages within the limits of D-parse-limits`);
}

function fromOutcome<T>(what: string, o: ParseOutcome<unknown>): EngineResult<T> {
  return o.ok ? { ok: true, value: o.value as T } : refusal(what, o.refused);
}

const trendingPage = (baseUrl: string) => new URL("trending", baseUrl).href;

/** The same tasks in the calling thread, guards included (tests and tools; the reference runs the pool). */
export function createInlineParser(limits: Partial<HtmlLimits> = {}): PageParser {
  const l = { ...DEFAULT_HTML_LIMITS, ...limits };
  // the parsers (linkedom, Readability, turndown, fast-xml-parser: ~0.5 s to load) load at the first task: a
  // reference parses in its pool's workers, and its event loop imports this module only for the interface
  const settle = async <T>(what: string, task: ParseTask): Promise<EngineResult<T>> =>
    fromOutcome<T>(what, (await import("./parse-tasks.ts")).runParseTask(task));
  return {
    extract: async (html, url, contentLanguage) =>
      settle(url, { kind: "extract", html, url, contentLanguage, limits: l }),
    links: async (html, url) => settle(url, { kind: "links", html, url, limits: l }),
    page: async (body) => settle(body.url, { kind: "page", ...body, limits: l }),
    pageLinks: async (body) => settle(body.url, { kind: "page-links", ...body, limits: l }),
    sitemap: async (body) => settle("sitemap", { kind: "sitemap", body }),
    facts: async (body, markdown) => settle(body.url, { kind: "facts", ...body, markdown, limits: l }),
    githubTrending: async (body, baseUrl, limit) =>
      settle(trendingPage(baseUrl), { kind: "github-trending", body, baseUrl, limit, limits: l }),
    arxivFeed: async (body, maxEntries) => settle("arXiv feed", { kind: "arxiv-feed", body, maxEntries }),
    close: async () => {},
  };
}

export function createParsePool(o: ParsePoolOptions = {}): PageParser {
  const threads = o.threads ?? Math.max(1, availableParallelism());
  const taskTimeoutMs = o.taskTimeoutMs ?? DEFAULT_PARSE_POOL.taskTimeoutMs;
  const queueTimeoutMs = o.queueTimeoutMs ?? DEFAULT_PARSE_POOL.queueTimeoutMs;
  const limits = { ...DEFAULT_HTML_LIMITS, ...o.limits };
  // below this a worker cannot even load the parsers, and would be restarted forever
  const heapMb = Math.max(48, o.heapMb ?? DEFAULT_PARSE_POOL.heapMb);
  const pool = new Piscina({
    // from the sources a worker loads the TypeScript through a shim (./parse-worker.mjs); built, the .js itself
    filename: new URL(import.meta.url.endsWith(".ts") ? "./parse-worker.mjs" : "./parse-worker.js", import.meta.url)
      .href,
    // a worker starts when a task finds none free, up to `threads`, and is kept: loading the parsers takes a worker
    // about half a second of CPU, which a reference that never parses (a conformance target of /search, a test of
    // its accounts) does not spend, nor its second worker while one is enough
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    maxQueue: o.maxQueue ?? threads * 8,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    workerData: { nice: Math.min(19, Math.max(0, o.nice ?? DEFAULT_PARSE_POOL.nice)) },
  });
  let closed = false;
  // a worker posts a task's id when it starts it (parse-worker.ts), and the time cap starts then: one message on the
  // worker's own port, where a channel per task cost the event loop a tenth of its allocation per crawl
  const started = new Map<number, (tid: number | undefined, cpuAtStart: number | undefined) => void>();
  let nextId = 1;
  pool.on("message", (m: { parseStarted?: number; tid?: number; cpuMs?: number }) => {
    if (typeof m?.parseStarted === "number") started.get(m.parseStarted)?.(m.tid, m.cpuMs);
  });
  // a worker that dies outside any task (its heap cap, while idle) is replaced by piscina; it must not crash the
  // process as an unhandled 'error' event
  pool.on("error", (err: Error) => {
    if (!closed) console.error(`plumbline: a parsing worker failed: ${err.message}`);
  });

  async function run<T>(task: ParseTask, what: string, caller?: AbortSignal): Promise<EngineResult<T>> {
    if (closed) return failed("The reference is shutting down");
    if (caller?.aborted) return failed(`The parse of ${what} was cancelled`);
    const abort = new AbortController();
    let why: "queue" | "time" | "caller" | null = null;
    const stop = (reason: typeof why) => {
      why ??= reason;
      abort.abort();
    };
    const onCaller = () => stop("caller");
    caller?.addEventListener("abort", onCaller, { once: true });
    const id = nextId++;
    let timer = setTimeout(() => stop("queue"), queueTimeoutMs);
    started.set(id, (tid, cpuAtStart) => {
      clearTimeout(timer);
      // the cap is the CPU the worker spends on the task where it can be read (Linux: the worker's own clock at the
      // start, /proc's once the wall clock says the cap may be reached), and never more than CPU_CAP_WALL_FACTOR
      // times the cap in wall time
      const wallDeadline = performance.now() + taskTimeoutMs * CPU_CAP_WALL_FACTOR;
      const check = (waitMs: number) => {
        timer = setTimeout(() => {
          const now = threadCpuMs(tid);
          const spent = cpuAtStart === undefined || now === undefined ? undefined : now - cpuAtStart;
          const wallLeft = wallDeadline - performance.now();
          if (spent === undefined || spent >= taskTimeoutMs || wallLeft <= 0) return stop("time");
          check(Math.max(50, Math.min(taskTimeoutMs - spent, wallLeft)));
        }, waitMs);
      };
      check(taskTimeoutMs);
    });
    try {
      const out = (await pool.run({ ...task, id }, { signal: abort.signal })) as ParseOutcome<unknown>;
      return fromOutcome<T>(what, out);
    } catch (err) {
      if (why === "caller") return failed(`The parse of ${what} was cancelled`);
      if (why === "time") return failed(`The page ${what} could not be parsed within ${taskTimeoutMs} ms`);
      if (why === "queue") return failed(`The reference is busy: the page ${what} waited ${queueTimeoutMs} ms`);
      const e = err as { code?: string; message?: string };
      if (e.code === "ERR_WORKER_OUT_OF_MEMORY")
        return failed(`The page ${what} needed more than the ${heapMb} MiB a parse may use`);
      if (/queue is at limit/i.test(e.message ?? "")) return failed("The reference is busy parsing; retry shortly");
      return failed(`The page ${what} could not be parsed (${e.message ?? String(err)})`);
    } finally {
      clearTimeout(timer);
      started.delete(id);
      caller?.removeEventListener("abort", onCaller);
    }
  }

  return {
    extract: (html, url, contentLanguage, signal) =>
      run({ kind: "extract", html, url, contentLanguage, limits }, url, signal),
    links: (html, url, signal) => run({ kind: "links", html, url, limits }, url, signal),
    page: (body, signal) => run({ kind: "page", ...body, limits }, body.url, signal),
    pageLinks: (body, signal) => run({ kind: "page-links", ...body, limits }, body.url, signal),
    sitemap: (body, signal) => run({ kind: "sitemap", body }, "sitemap", signal),
    facts: (body, markdown, signal) => run({ kind: "facts", ...body, markdown, limits }, body.url, signal),
    githubTrending: (body, baseUrl, limit, signal) =>
      run({ kind: "github-trending", body, baseUrl, limit, limits }, trendingPage(baseUrl), signal),
    arxivFeed: (body, maxEntries, signal) => run({ kind: "arxiv-feed", body, maxEntries }, "arXiv feed", signal),
    async close() {
      closed = true;
      await pool.destroy();
    },
  };
}
