// Deepcrawl on the mock clock (D-deepcrawl-states): a task is queued, waiting, processing, then completed (or
// failed) as the clock passes configurable step durations. The state is computed from the clock on every read,
// so a manual clock steps through every state deterministically. The zip is built once, at completion, with the
// same packager the reference uses (D-deepcrawl-zip).
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { createZipLinks, newLinkSecret } from "../reference/platform/deepcrawl-link.ts";
import { packageDeepcrawl } from "../reference/platform/deepcrawl-package.ts";
import type { DeepcrawlService, DeepcrawlState, DeepcrawlTask } from "../reference/platform/deepcrawl-service.ts";
import type { EngineContext, SiteCrawler } from "../reference/platform/engines.ts";
import type { Clock } from "../reference/platform/stores.ts";
import type { Schemas } from "../spec/index.ts";
import { targetStatus } from "./engines/index.ts";

export interface DeepcrawlSteps {
  queuedMs: number;
  waitingMs: number;
  processingMs: number;
}

export const DEFAULT_STEPS: DeepcrawlSteps = { queuedMs: 1000, waitingMs: 1000, processingMs: 3000 };

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
  clear(): void;
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

  function stateOf(t: Record_, now: number): DeepcrawlState {
    const elapsed = now - t.createdAtMs;
    if (elapsed < steps.queuedMs) return "queued";
    if (elapsed < steps.queuedMs + steps.waitingMs) return "waiting";
    if (elapsed < steps.queuedMs + steps.waitingMs + steps.processingMs) return "processing";
    return t.scenario.outcome;
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
      tasks.set(taskId, t);
      return { ok: true, value: await view(t, true) };
    },
    async get(taskId) {
      const t = tasks.get(taskId);
      return t ? view(t) : null;
    },
    async archive(taskId) {
      const t = tasks.get(taskId);
      if (!t) return null;
      const v = await view(t);
      const zip = v.status === "completed" ? t.finished?.zip : null;
      return zip ? { body: Readable.from([zip]), bytes: zip.byteLength } : null;
    },
    links,
    list() {
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
    },
  };
}
