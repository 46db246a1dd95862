// Deepcrawl on the mock clock (D-deepcrawl-states): a task is queued, waiting, processing, then completed (or
// failed) as the clock passes configurable step durations. The state is computed from the clock on every read,
// so a manual clock steps through every state deterministically. The zip is built once, at completion, with the
// same packager the reference uses (D-deepcrawl-zip).
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { Schemas } from "@plumbline-kit/contract";
import { createZipLinks, newLinkSecret } from "@plumbline-kit/platform/deepcrawl-link";
import { packageDeepcrawl } from "@plumbline-kit/platform/deepcrawl-package";
import type { DeepcrawlService, DeepcrawlState, DeepcrawlTask } from "@plumbline-kit/platform/deepcrawl-service";
import type { EngineContext, SiteCrawler } from "@plumbline-kit/platform/engines";
import type { Clock } from "@plumbline-kit/platform/stores";
import { targetStatus } from "./engines/index.ts";

export interface DeepcrawlSteps {
  queuedMs: number;
  waitingMs: number;
  processingMs: number;
}

export const DEFAULT_STEPS: DeepcrawlSteps = { queuedMs: 1000, waitingMs: 1000, processingMs: 3000 };

/** How long a finished task (and its zip) is kept on the mock clock: a day, past the hour a zipUrl is valid. */
export const DEFAULT_TASK_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Finished tasks kept at most; the oldest finished go first (a running task is never dropped). */
export const DEFAULT_MAX_TASKS = 1000;

/** What a test or the contract-edge mode asks a task to end as. */
export type DeepcrawlScenario = { outcome: "completed" } | { outcome: "failed"; error: string };

interface Record_ {
  taskId: string;
  accountId: string;
  url: string;
  type: "sitemap" | "all";
  createdAtMs: number;
  scenario: DeepcrawlScenario;
  ctx: EngineContext;
  /** set once the task has been finished (pages fetched and packaged, or failed) */
  finished?: { completedAt: string; zip: Buffer | null; pageCount: number; error: string | null };
  finishing?: Promise<void>;
  /** the failure was reported to onFailed (once) */
  refunded?: boolean;
}

export interface DeepcrawlSimulator extends DeepcrawlService {
  steps: DeepcrawlSteps;
  setSteps(steps: Partial<DeepcrawlSteps>): DeepcrawlSteps;
  /** the scenario the next started tasks follow (null: decided by URL convention and variability) */
  setNextScenario(scenario: DeepcrawlScenario | null): void;
  list(): DeepcrawlTask[];
  /** tasks held (running and finished), finished ones, zips built and their bytes, and the bounds */
  stats(): DeepcrawlStoreStats;
  clear(): void;
}

export interface DeepcrawlStoreStats {
  tasks: number;
  running: number;
  finished: number;
  zips: number;
  zipBytes: number;
  /** finished tasks kept at most (running ones are not counted against it and never dropped) */
  maxTasks: number;
  /** ms a finished task is kept on the mock clock */
  retentionMs: number;
  /** finished tasks dropped so far: past their retention, or the oldest once over maxTasks */
  expired: number;
  evicted: number;
}

export interface DeepcrawlSimulatorOptions {
  clock: Clock;
  crawler: SiteCrawler;
  steps?: Partial<DeepcrawlSteps>;
  /** how long a signed zipUrl stays valid on the mock clock (default one hour) */
  zipLinkTtlMs?: number;
  /**
   * A task found `failed`, once (the mock refunds its charge, D-charging). Tasks move on the clock as they are read,
   * so this is the first read after the failure: a status poll or a zip download, never the start itself (its
   * charge is not recorded yet then).
   */
  onFailed?: (task: DeepcrawlTask) => Promise<void>;
  /** how long a finished task and its zip are kept, on the mock clock (default DEFAULT_TASK_RETENTION_MS) */
  retentionMs?: number;
  /** finished tasks kept at most, the oldest finished dropped first (default DEFAULT_MAX_TASKS) */
  maxTasks?: number;
}

/** The engine context with the outcome a request asked for (`Prefer: deepcrawl=failed`). */
type SimulatorContext = EngineContext & { deepcrawl?: "failed" | "completed" };

function scenarioFor(ctx: SimulatorContext, url: string, taskId: string): DeepcrawlScenario {
  if (ctx.deepcrawl === "failed")
    return { outcome: "failed", error: "Failed as the request asked (Prefer: deepcrawl=failed)" };
  if (ctx.deepcrawl === "completed") return { outcome: "completed" };
  const status = targetStatus(url);
  if (status !== null) return { outcome: "failed", error: `The site answered ${status}` };
  // contract-edge mode: every other task fails, so clients meet `failed` too
  if (ctx.variability === "max" && Number.parseInt(taskId.slice(-2), 16) % 2 === 1) {
    return { outcome: "failed", error: "robots.txt disallows every path" };
  }
  return { outcome: "completed" };
}

export function createDeepcrawlSimulator(o: DeepcrawlSimulatorOptions): DeepcrawlSimulator {
  const tasks = new Map<string, Record_>();
  let steps: DeepcrawlSteps = { ...DEFAULT_STEPS, ...o.steps };
  let nextScenario: DeepcrawlScenario | null = null;
  // a secret per mock process: its tasks live in memory and die with it, so must its links
  const links = createZipLinks({ secret: newLinkSecret(), clock: o.clock, ttlMs: o.zipLinkTtlMs });
  const retentionMs = o.retentionMs ?? DEFAULT_TASK_RETENTION_MS;
  const maxTasks = o.maxTasks ?? DEFAULT_MAX_TASKS;
  if (!(retentionMs > 0)) throw new RangeError("a deepcrawl task's retention must be more than 0 ms");
  if (!Number.isSafeInteger(maxTasks) || maxTasks < 1) throw new RangeError("deepcrawl max tasks must be >= 1");
  let expired = 0;
  let evicted = 0;

  const doneAtMs = (t: Record_) => t.createdAtMs + steps.queuedMs + steps.waitingMs + steps.processingMs;

  function stateOf(t: Record_, now: number): DeepcrawlState {
    const elapsed = now - t.createdAtMs;
    if (elapsed < steps.queuedMs) return "queued";
    if (elapsed < steps.queuedMs + steps.waitingMs) return "waiting";
    if (elapsed < steps.queuedMs + steps.waitingMs + steps.processingMs) return "processing";
    return t.scenario.outcome;
  }

  /**
   * Drops finished tasks past their retention, then the oldest finished ones while more than maxTasks finished are
   * held. Running tasks stay whatever their number: they finish after the steps' durations, then count. Called on
   * every start and read, so the mock clock (manual or real) drives it and an idle mock needs no timer. O(tasks
   * held), which the bounds keep small.
   */
  function sweep() {
    const now = o.clock.now();
    let finished = 0;
    for (const [id, t] of tasks) {
      const done = doneAtMs(t);
      if (done > now) continue;
      if (done + retentionMs <= now) {
        tasks.delete(id);
        expired++;
      } else finished++;
    }
    if (finished <= maxTasks) return;
    // the oldest finished first: by the time they finished, then by start (the map's order)
    const byAge = [...tasks.values()].filter((t) => doneAtMs(t) <= now).sort((a, b) => doneAtMs(a) - doneAtMs(b));
    for (const t of byAge.slice(0, finished - maxTasks)) {
      tasks.delete(t.taskId);
      evicted++;
    }
  }

  async function finish(t: Record_): Promise<void> {
    const completedAt = new Date(t.createdAtMs + steps.queuedMs + steps.waitingMs + steps.processingMs).toISOString();
    if (t.scenario.outcome === "failed") {
      t.finished = { completedAt, zip: null, pageCount: 0, error: t.scenario.error };
      return;
    }
    const urls = await o.crawler.discover(t.url, t.type, t.ctx);
    if (!urls.ok) {
      t.finished = { completedAt, zip: null, pageCount: 0, error: urls.message ?? "discovery failed" };
      t.scenario = { outcome: "failed", error: t.finished.error ?? "discovery failed" };
      return;
    }
    const pages = await Promise.all(urls.value.map((u) => o.crawler.fetchPage(u, t.ctx)));
    const zip = await packageDeepcrawl({
      taskId: t.taskId,
      url: t.url,
      type: t.type,
      createdAt: new Date(t.createdAtMs).toISOString(),
      completedAt,
      pages,
    });
    t.finished = { completedAt, zip, pageCount: pages.length, error: null };
  }

  async function view(t: Record_, starting = false): Promise<DeepcrawlTask> {
    const status = stateOf(t, o.clock.now());
    if (status === "completed" || status === "failed") {
      t.finishing ??= finish(t);
      await t.finishing;
    }
    const final = stateOf(t, o.clock.now()); // finishing may turn a completion into a failure
    const messages: Record<DeepcrawlState, string> = {
      queued: "Queued",
      waiting: "Waiting for a crawler",
      processing: "Crawling",
      completed: `${t.finished?.pageCount ?? 0} pages packaged`,
      failed: "The crawl failed",
    };
    const task: DeepcrawlTask = {
      taskId: t.taskId,
      accountId: t.accountId,
      url: t.url,
      type: t.type,
      status: final,
      message: messages[final],
      error: final === "failed" ? (t.finished?.error ?? "failed") : null,
      createdAt: new Date(t.createdAtMs).toISOString(),
      completedAt: final === "completed" || final === "failed" ? (t.finished?.completedAt ?? null) : null,
      r2Key: final === "completed" ? `deepcrawl/${t.taskId}.zip` : null,
      requestId: t.ctx.requestId,
    };
    if (final === "failed" && !starting && !t.refunded && o.onFailed) {
      t.refunded = true;
      await o.onFailed(task);
    }
    return task;
  }

  return {
    get steps() {
      return steps;
    },
    setSteps(s) {
      steps = { ...steps, ...s };
      return steps;
    },
    setNextScenario(s) {
      nextScenario = s;
    },
    async start(accountId, request: Schemas["DeepcrawlRequest"], ctx) {
      const taskId = `dc_${randomBytes(16).toString("hex")}`;
      const scenario = nextScenario ?? scenarioFor(ctx, request.url, taskId);
      const t: Record_ = {
        taskId,
        accountId,
        url: request.url,
        type: request.type ?? "sitemap",
        createdAtMs: o.clock.now(),
        scenario,
        ctx,
      };
      sweep();
      tasks.set(taskId, t);
      return { ok: true, value: await view(t, true) };
    },
    async get(taskId) {
      sweep();
      const t = tasks.get(taskId);
      return t ? view(t) : null;
    },
    async archive(taskId) {
      sweep();
      const t = tasks.get(taskId);
      if (!t) return null;
      const v = await view(t);
      const zip = v.status === "completed" ? t.finished?.zip : null;
      return zip ? { body: Readable.from([zip]), bytes: zip.byteLength } : null;
    },
    links,
    stats() {
      sweep();
      const now = o.clock.now();
      let running = 0;
      let zips = 0;
      let zipBytes = 0;
      for (const t of tasks.values()) {
        if (doneAtMs(t) > now) running++;
        if (t.finished?.zip) {
          zips++;
          zipBytes += t.finished.zip.byteLength;
        }
      }
      return {
        tasks: tasks.size,
        running,
        finished: tasks.size - running,
        zips,
        zipBytes,
        maxTasks,
        retentionMs,
        expired,
        evicted,
      };
    },
    list() {
      sweep();
      return [...tasks.values()].map((t) => ({
        taskId: t.taskId,
        accountId: t.accountId,
        url: t.url,
        type: t.type,
        status: stateOf(t, o.clock.now()),
        message: "",
        error: null,
        createdAt: new Date(t.createdAtMs).toISOString(),
        completedAt: null,
        r2Key: null,
        requestId: t.ctx.requestId,
      }));
    },
    clear() {
      tasks.clear();
      nextScenario = null;
      expired = 0;
      evicted = 0;
    },
  };
}
