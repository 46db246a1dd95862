// Deepcrawl tasks as the platform sees them (interface-spec "Deepcrawl task", "States and transitions";
// D-deepcrawl-states, D-status-not-found, D-deepcrawl-zip). The mock runs tasks on its virtual clock; the
// reference runs a real job worker. Both answer through this interface, so the status shape is written once.
import type { Readable } from "node:stream";
import type { Schemas } from "@plumbline-kit/contract";
import { type ZipLinks, zipPath } from "./deepcrawl-link.ts";
import type { EngineContext, EngineResult } from "./engines.ts";
import type { AccountStore } from "./stores.ts";

export { zipPath };

/** A task's states: the contract's status values but `not_found`, which only an unknown id reports. */
export type DeepcrawlState = Exclude<NonNullable<Schemas["DeepcrawlStatusResponse"]["status"]>, "not_found">;

export interface DeepcrawlTask {
  taskId: string;
  accountId: string;
  url: string;
  type: "sitemap" | "all";
  status: DeepcrawlState;
  message: string;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  /** locator of the packaged result, once completed */
  r2Key: string | null;
  /** the request that started the task, whose charge a failure refunds (null for tasks recorded before it was kept) */
  requestId: string | null;
}

/** A packaged result, streamed to the client (never held whole in memory by the reference). */
export interface DeepcrawlArchive {
  body: Readable;
  /** byte size, when known (sent as Content-Length) */
  bytes: number | null;
}

export interface DeepcrawlService {
  start(
    accountId: string,
    request: Schemas["DeepcrawlRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<DeepcrawlTask>>;
  /** The task as it stands now; null for an unknown id. */
  get(taskId: string): Promise<DeepcrawlTask | null>;
  /** The zip of a completed task as a stream; null when there is none. */
  archive(taskId: string): Promise<DeepcrawlArchive | null>;
  /** signs and checks the expiring zipUrls (deepcrawl-link.ts) */
  links: ZipLinks;
}

/**
 * D-charging: a deepcrawl is charged when its task is accepted (202), and a task that ends `failed` gives that
 * charge back (a "refund" ledger row referencing the start's request id), whatever made it fail: the address
 * policy, an upstream, the worker's limits. Idempotent, so whoever sees the failure may call it again.
 */
export function refundFailedTask(
  accounts: Pick<AccountStore, "refund">,
  log: (message: string, err?: unknown) => void,
): (task: Pick<DeepcrawlTask, "taskId" | "accountId" | "requestId">) => Promise<void> {
  return async (task) => {
    if (!task.requestId) return;
    try {
      await accounts.refund(task.accountId, task.requestId);
    } catch (err) {
      log(`deepcrawl ${task.taskId}: refunding the failed task failed`, err);
    }
  };
}

export function statusResponse(
  task: DeepcrawlTask,
  baseUrl: string,
  links: ZipLinks,
): Schemas["DeepcrawlStatusResponse"] {
  const completed = task.status === "completed";
  const finished = completed || task.status === "failed";
  return {
    taskId: task.taskId,
    status: task.status,
    // only a finished task has an outcome: clients stop polling at the first `success` (D-deepcrawl-success)
    ...(finished ? { success: completed } : {}),
    message: task.message,
    error: task.error,
    ...(completed && task.r2Key ? { r2Key: task.r2Key } : {}),
    zipUrl: completed ? `${baseUrl}${links.sign(task.taskId)}` : null,
  };
}
