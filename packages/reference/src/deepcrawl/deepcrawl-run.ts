// One deepcrawl task, from a worker's claim to its end (issue 11; D-deepcrawl-states, D-deepcrawl-zip):
//   1. discover (once; kept across restarts): `sitemap` as POST /sitemap does (its engine, same host), `all` from
//      the start page; URLs robots.txt disallows are dropped;
//   2. crawl the listed pages breadth first, a few at a time, each host paced, each page converted as POST /crawl
//      converts it and saved at once (a restarted task only fetches what is left); `all` lists each page's
//      same-host links as it goes;
//   3. stop early at a limit (pages, document bytes, duration) and say so; package the saved pages as a stream into
//      the package store; complete the task if the lease is still ours, else drop the package.
// Every task write is conditional on the lease (sql-deepcrawl.ts): a worker that lost it stops (LeaseLost).
import type { Schemas } from "@plumbline-kit/contract";
import { type ManifestHead, pageDocument } from "@plumbline-kit/platform/deepcrawl-package";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import type { Clock } from "@plumbline-kit/platform/stores";
import { sameHostAs } from "../engines/host-filter.ts";
import type { HttpClient } from "../engines/index.ts";
import type { SqlDeepcrawlStore, TaskPatch, TaskRow } from "../store/sql-deepcrawl.ts";
import type { DeepcrawlLimits, DeepcrawlPageHook } from "./deepcrawl-options.ts";
import { writeDeepcrawlZip } from "./deepcrawl-zip-writer.ts";
import type { HostPacer } from "./host-pacer.ts";
import type { PackageStore } from "./package-store.ts";
import type { CrawlFn, PageFetcher } from "./page-fetcher.ts";
import { type RobotsRules, readRobots } from "./robots-rules.ts";

export type SitemapFn = (
  request: Schemas["SitemapRequest"],
  ctx: EngineContext,
) => Promise<EngineResult<Schemas["SitemapResponse"]>>;

export interface RunnerDeps {
  store: SqlDeepcrawlStore;
  packages: PackageStore;
  fetcher: PageFetcher;
  crawl: CrawlFn;
  sitemap: SitemapFn;
  http: HttpClient;
  pacer: HostPacer;
  clock: Clock;
  limits: DeepcrawlLimits;
  concurrency: number;
  hostDelayMs: number;
  /** a robots.txt Crawl-delay is honoured up to this */
  maxCrawlDelayMs: number;
  userAgent: string;
  onPage?: DeepcrawlPageHook;
  log: (message: string, err?: unknown) => void;
}

/** The worker lost the task's lease (or is shutting down): stop without touching the task. */
export class LeaseLost extends Error {}

const PAGE_BATCH = 50;

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
}

export async function runTask(t: TaskRow, owner: string, signal: AbortSignal, d: RunnerDeps): Promise<void> {
  const iso = () => new Date(d.clock.now()).toISOString();
  const taskId = t.task_id;
  const write = async (patch: TaskPatch) => {
    if (!(await d.store.update(taskId, owner, patch))) throw new LeaseLost(`lost the lease of ${taskId}`);
  };
  const fail = async (error: string) => {
    await write({ status: "failed", error, message: "The crawl failed", completed_at: iso() });
    await d.store.deletePages(taskId);
  };
  const checkAbort = () => {
    if (signal.aborted) throw new LeaseLost(`stopped while crawling ${taskId}`);
  };
  const robots = new Map<string, Promise<RobotsRules>>();
  const rulesFor = (url: string) => {
    const origin = new URL(url).origin;
    let r = robots.get(origin);
    if (!r) {
      r = readRobots(d.http, origin, d.userAgent, signal);
      robots.set(origin, r);
    }
    return r;
  };
  const allowed = async (urls: string[]) => {
    const out: string[] = [];
    for (const u of urls) {
      if ((await rulesFor(u)).allowed(u)) out.push(u);
      // a turn of the event loop between URLs: a sitemap's 50,000 URLs against a large robots.txt never hold it
      await new Promise((r) => setImmediate(r));
    }
    return out;
  };
  let n = 0;
  const ctx = (): EngineContext => ({ requestId: `${taskId}.${++n}`, variability: "normal", seed: 0, signal });
  const onHost = sameHostAs(t.url);
  const { maxPages, maxBytes, maxDurationMs } = d.limits;
  let limitReached = t.limit_reached;

  if (!t.discovered) {
    const start = await rulesFor(t.url);
    if (start.blocked) return fail(start.blocked);
    let found: string[];
    if (t.type === "all") found = [t.url];
    else {
      const r = await d.sitemap({ url: t.url, type: "sitemap" }, ctx());
      checkAbort();
      if (!r.ok) return fail(`Discovering the pages failed: ${r.message ?? r.code}`);
      found = [...new Set(r.value.links.filter(onHost))];
    }
    const kept = await allowed(found);
    if (found.length > 0 && kept.length === 0)
      return fail(`robots.txt disallows every page to crawl (${found.length} found from ${t.url})`);
    if (kept.length > maxPages) {
      limitReached = "pages";
      kept.length = maxPages;
    }
    await d.store.addPages(
      taskId,
      kept.map((url) => ({ url, depth: 0 })),
    );
    await write({
      discovered: 1,
      status: "processing",
      limit_reached: limitReached,
      message: `Crawling: 0 of ${kept.length} pages fetched`,
    });
  } else if (t.status !== "processing") await write({ status: "processing" });

  const stats = await d.store.stats(taskId);
  let bytes = stats.bytes;
  let done = stats.done;
  let listed = stats.done + stats.pending;
  const startedMs = Date.parse(t.started_at ?? iso());
  const stopped = () => limitReached === "bytes" || limitReached === "duration";
  // links are listed one page at a time, so the pages limit is exact under concurrency
  let listing = Promise.resolve();
  const listLinks = (links: string[], depth: number) => {
    listing = listing.then(async () => {
      const fresh = await d.store.unlisted(taskId, await allowed([...new Set(links.filter(onHost))]));
      const room = Math.max(0, maxPages - listed);
      if (fresh.length > room) limitReached ??= "pages";
      listed += await d.store.addPages(
        taskId,
        fresh.slice(0, room).map((url) => ({ url, depth })),
      );
    });
    return listing;
  };

  async function crawlOne(p: { url: string; depth: number }) {
    if (stopped() || signal.aborted) return;
    if (d.clock.now() - startedMs > maxDurationMs) {
      limitReached = "duration";
      return;
    }
    const rules = await rulesFor(p.url);
    const delay = Math.max(d.hostDelayMs, Math.min(rules.crawlDelayMs ?? 0, d.maxCrawlDelayMs));
    await d.pacer.turn(new URL(p.url).host, delay, signal);
    const page = await d.fetcher.fetch(p.url, ctx(), t.type === "all", d.crawl);
    checkAbort();
    const fetchedAt = iso();
    const doc = pageDocument({
      url: p.url,
      title: page.title,
      status: page.status,
      markdown: page.markdown,
      fetchedAt,
    });
    if (bytes + doc.entry.bytes > maxBytes) {
      limitReached = "bytes";
      return;
    }
    bytes += doc.entry.bytes;
    await d.store.savePage(taskId, p.url, {
      status: page.status,
      title: page.title,
      path: doc.entry.path,
      document: doc.document?.toString("utf8") ?? null,
      bytes: doc.entry.bytes,
      fetchedAt,
    });
    done++;
    if (page.markdown !== null && d.onPage) {
      const hook = d.onPage;
      const fed = { url: p.url, title: page.title ?? "", markdown: page.markdown, fetchedAt, metadata: page.metadata };
      await hook(fed).catch((err) => d.log(`deepcrawl ${taskId}: the onPage hook failed for ${p.url}`, err));
    }
    if (page.links.length > 0) await listLinks(page.links, p.depth + 1);
    await write({ message: `Crawling: ${done} of ${listed} pages fetched` });
  }

  while (!stopped()) {
    checkAbort();
    const batch = await d.store.pendingPages(taskId, Math.max(PAGE_BATCH, d.concurrency));
    if (batch.length === 0) break;
    await pool(batch, d.concurrency, crawlOne);
  }
  checkAbort();
  if (limitReached) await d.store.dropPending(taskId);

  const completedAt = iso();
  const key = `deepcrawl/${taskId}/${t.attempts}.zip`;
  const head: ManifestHead = {
    taskId,
    url: t.url,
    type: t.type,
    createdAt: t.created_at,
    completedAt,
    limitReached: limitReached ?? null,
  };
  // a previous attempt killed while packaging may have left a partial write: dropped (housekeeping: a store that
  // cannot list them does not fail the task)
  if (t.attempts > 1)
    await d.packages
      .sweep(`deepcrawl/${taskId}`)
      .catch((err) => d.log(`deepcrawl ${taskId}: sweeping an earlier attempt's partial package failed`, err));
  const upload = await d.packages.create(key);
  let size: number;
  try {
    size = await writeDeepcrawlZip(upload, head, () => savedPages(d.store, taskId));
  } catch (err) {
    await upload.abort();
    throw err;
  }
  const note = limitReached ? `; stopped at the ${limitReached} limit` : "";
  const completed = await d.store.update(taskId, owner, {
    status: "completed",
    completed_at: completedAt,
    r2_key: key,
    package_bytes: size,
    limit_reached: limitReached ?? null,
    message: `${done} pages packaged${note}`,
    error: null,
  });
  // another worker took the task over meanwhile: its package is the task's, this one is dropped (never two)
  if (!completed) {
    await d.packages.remove(key);
    throw new LeaseLost(`lost the lease of ${taskId} while packaging`);
  }
  await d.store.deletePages(taskId);
}

async function* savedPages(store: SqlDeepcrawlStore, taskId: string) {
  let after = 0;
  for (;;) {
    const rows = await store.donePages(taskId, after, 100);
    if (rows.length === 0) return;
    for (const r of rows)
      yield {
        entry: { url: r.url, path: r.path, title: r.title, status: r.status, bytes: r.bytes },
        document: r.document,
      };
    after = rows[rows.length - 1].id;
  }
}
