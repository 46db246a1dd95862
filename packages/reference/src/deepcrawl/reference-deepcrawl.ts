// The reference's DeepcrawlService (issue 11): POST /deepcrawl persists a task and answers at once; the worker of
// this instance (or of any instance sharing the PostgreSQL database) runs it; status and package are read from the
// shared database and package store, so any instance answers for any task. The platform charges the start (once:
// the worker never charges) and signs zipUrls with a secret all instances read from the database.
import { randomBytes } from "node:crypto";
import { createZipLinks, newLinkSecret } from "@plumbline-kit/platform/deepcrawl-link";
import type { DeepcrawlService, DeepcrawlTask } from "@plumbline-kit/platform/deepcrawl-service";
import type { Clock } from "@plumbline-kit/platform/stores";
import type { Kysely } from "kysely";
import { literalHostReason } from "../engines/address-policy.ts";
import type { PageRenderer } from "../engines/index.ts";
import { createCrawlEngine, createSitemapEngine, DEFAULT_USER_AGENT, type HttpClient } from "../engines/index.ts";
import type { PageParser } from "../engines/parse/parse-pool.ts";
import type { Database, Dialect } from "../store/schema.ts";
import { createSqlDeepcrawlStore, type SqlDeepcrawlStore, type TaskRow } from "../store/sql-deepcrawl.ts";
import { DEFAULT_DEEPCRAWL_SETTINGS, type DeepcrawlPageHook, type DeepcrawlSettings } from "./deepcrawl-options.ts";
import { type RunnerDeps, runTask } from "./deepcrawl-run.ts";
import { type DeepcrawlWorker, startDeepcrawlWorker } from "./deepcrawl-worker.ts";
import { createHostPacer } from "./host-pacer.ts";
import type { PackageStore } from "./package-store.ts";
import { createPageFetcher } from "./page-fetcher.ts";

export interface ReferenceDeepcrawlOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  http: HttpClient;
  renderer?: PageRenderer | null;
  /** where pages are parsed (the reference's worker pool, issue 12); in this thread when absent */
  parser?: PageParser;
  clock: Clock;
  packages: PackageStore;
  settings?: Partial<Omit<DeepcrawlSettings, "limits">> & { limits?: Partial<DeepcrawlSettings["limits"]> };
  allowPrivateNetwork?: boolean;
  userAgent?: string;
  /** the zipUrl signing secret; by default one is created once and kept in the database (server_secrets) */
  linkSecret?: string;
  /** false: this instance answers for tasks but runs none (another instance's worker does) */
  worker?: boolean;
  onPage?: DeepcrawlPageHook;
  /** a task the worker ended `failed`: the reference refunds its charge (refundFailedTask, D-charging) */
  onFailed?: (task: DeepcrawlTask) => Promise<void>;
  log?: (message: string, err?: unknown) => void;
}

export interface ReferenceDeepcrawl extends DeepcrawlService {
  store: SqlDeepcrawlStore;
  /** where this instance writes and reads packages */
  packages: PackageStore;
  worker: DeepcrawlWorker | null;
  close(): Promise<void>;
}

/** How far back a start looks for failed tasks whose refund a crash may have cut off (D-charging). */
const REFUND_RECOVERY_MS = 7 * 24 * 3600_000;

const MESSAGES = { queued: "Queued", waiting: "Waiting for a crawler" } as const;

function view(t: TaskRow): DeepcrawlTask {
  return {
    taskId: t.task_id,
    accountId: t.account_id,
    url: t.url,
    type: t.type,
    status: t.status,
    message: t.status === "queued" || t.status === "waiting" ? MESSAGES[t.status] : t.message,
    error: t.status === "failed" ? (t.error ?? "The crawl failed") : null,
    createdAt: t.created_at,
    completedAt: t.completed_at,
    r2Key: t.status === "completed" ? t.r2_key : null,
    requestId: t.request_id ?? null,
  };
}

export async function createReferenceDeepcrawl(o: ReferenceDeepcrawlOptions): Promise<ReferenceDeepcrawl> {
  const settings: DeepcrawlSettings = {
    ...DEFAULT_DEEPCRAWL_SETTINGS,
    ...o.settings,
    limits: { ...DEFAULT_DEEPCRAWL_SETTINGS.limits, ...o.settings?.limits },
  };
  const log = o.log ?? ((m, err) => console.error(m, err ?? ""));
  const store = await createSqlDeepcrawlStore(o.db, o.dialect);
  const secret = o.linkSecret ?? (await store.secret("deepcrawl-zip-links", newLinkSecret));
  const links = createZipLinks({ secret, clock: o.clock, ttlMs: settings.linkTtlMs });
  const fetcher = createPageFetcher(o.http, o.parser);
  const deps: RunnerDeps = {
    store,
    packages: o.packages,
    fetcher,
    // the engines of POST /crawl and POST /sitemap, over the tapped client (page-fetcher.ts)
    crawl: createCrawlEngine({ http: fetcher.http, renderer: o.renderer ?? null, clock: o.clock, parser: o.parser }),
    sitemap: createSitemapEngine({
      http: o.http,
      limits: { maxUrls: settings.limits.maxPages + 1 },
      parser: o.parser,
    }),
    http: o.http,
    pacer: createHostPacer(() => o.clock.now()),
    clock: o.clock,
    limits: settings.limits,
    concurrency: settings.concurrency,
    hostDelayMs: settings.hostDelayMs,
    maxCrawlDelayMs: settings.maxCrawlDelayMs,
    userAgent: o.userAgent ?? DEFAULT_USER_AGENT,
    onPage: o.onPage,
    log,
  };
  const worker =
    o.worker === false
      ? null
      : startDeepcrawlWorker({
          store,
          clock: o.clock,
          leaseMs: settings.leaseMs,
          pollMs: settings.pollMs,
          maxTasks: settings.maxTasks,
          maxAttempts: settings.maxAttempts,
          run: (task, owner, signal) => runTask(task, owner, signal, deps),
          onFailed: o.onFailed && ((task) => (o.onFailed as NonNullable<typeof o.onFailed>)(view(task))),
          log,
        });
  if (worker && o.onFailed) {
    // a failure recorded by a process that died before it wrote the refund is refunded at the next start: every
    // task that failed within REFUND_RECOVERY_MS is offered again (a refund is once per request: one refunded
    // already gives nothing more)
    const since = new Date(o.clock.now() - REFUND_RECOVERY_MS).toISOString();
    for (const t of await store.failedSince(since, 10_000)) await o.onFailed(view(t));
  }

  return {
    store,
    packages: o.packages,
    worker,
    links,
    async start(accountId, request, ctx) {
      let host: string;
      try {
        const u = new URL(request.url);
        if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(u.protocol);
        host = u.hostname;
      } catch {
        return { ok: false, code: "PLB_BAD_VALUE", message: `Deepcrawl fetches http(s) URLs, not ${request.url}` };
      }
      // D-target-refusal: a refused host is refused now (400 as /crawl answers it, uncharged: the hold is released):
      // a literal one, and a name that resolves to one, by the same guarded lookup the fetches make. A name that
      // resolves differently later (or a redirect to a refused host) fails the task, which is refunded (D-charging)
      const reason = literalHostReason(host, o.allowPrivateNetwork ?? false);
      if (reason)
        return {
          ok: false,
          code: "PLB_BAD_VALUE",
          message: `The target host ${host} is a ${reason} address; this service fetches public addresses only`,
        };
      const resolved = await o.http.refusal?.(request.url, ctx.signal);
      if (resolved) return { ok: false, code: "PLB_BAD_VALUE", message: resolved };
      const row = {
        task_id: `dc_${randomBytes(16).toString("hex")}`,
        account_id: accountId,
        url: request.url,
        type: request.type ?? "sitemap",
        message: MESSAGES.queued,
        created_at: new Date(o.clock.now()).toISOString(),
        request_id: ctx.requestId,
      };
      await store.insertTask(row);
      worker?.wake();
      const task = await store.getTask(row.task_id);
      return task ? { ok: true, value: view(task) } : { ok: false, code: "PLB_INTERNAL" };
    },
    async get(taskId) {
      const t = await store.getTask(taskId);
      return t ? view(t) : null;
    },
    async archive(taskId) {
      const t = await store.getTask(taskId);
      if (t?.status !== "completed" || !t.r2_key) return null;
      return o.packages.open(t.r2_key);
    },
    async close() {
      await worker?.close();
    },
  };
}
