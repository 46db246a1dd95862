// Deepcrawl tasks as the platform sees them (interface-spec "Deepcrawl task", "States and transitions";
// D-deepcrawl-states, D-status-not-found, D-deepcrawl-zip). The mock runs tasks on its virtual clock; the
// reference runs a real job worker. Both answer through this interface, so the status shape is written once.
import type { Schemas } from "../../spec/index.ts";
import type { EngineContext, EngineResult } from "./engines.ts";

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
}

export interface DeepcrawlService {
  start(
    accountId: string,
    request: Schemas["DeepcrawlRequest"],
    ctx: EngineContext,
  ): Promise<EngineResult<DeepcrawlTask>>;
  /** The task as it stands now; null for an unknown id. */
  get(taskId: string): Promise<DeepcrawlTask | null>;
  /** The zip of a completed task; null when there is none. */
  archive(taskId: string): Promise<Buffer | null>;
}

/** Where a completed task's zip is served (a plumbline route beside the contract's paths). */
export function zipPath(taskId: string): string {
  return `/deepcrawl/files/${encodeURIComponent(taskId)}.zip`;
}

export function statusResponse(task: DeepcrawlTask, baseUrl: string): Schemas["DeepcrawlStatusResponse"] {
  const completed = task.status === "completed";
  return {
    taskId: task.taskId,
    status: task.status,
    success: completed,
    message: task.message,
    error: task.error,
    ...(completed && task.r2Key ? { r2Key: task.r2Key } : {}),
    zipUrl: completed ? `${baseUrl}${zipPath(task.taskId)}` : null,
  };
}
