// Deepcrawl tasks followed across polls (States and transitions; D-deepcrawl-states): a status answer names the
// task polled, a task's state never moves back, and completed and failed are ends. The order of the states is the
// document's (the status enum, in the order it lists them); at most MAX_TASKS tasks are remembered, oldest dropped.
import type { Contract } from "../../spec/index.ts";
import type { RuleId } from "./rules.ts";

const MAX_TASKS = 10_000;
const TERMINAL = new Set(["completed", "failed"]);

interface Seen {
  status: string;
  exchangeId: number;
}

export interface TaskViolation {
  rule: RuleId;
  message: string;
  expected?: string;
  actual?: string;
}

function stateOrder(contract: Contract): Map<string, number> {
  const schemas = (contract.document.components?.schemas ?? {}) as Record<string, unknown>;
  const status = (schemas.DeepcrawlStatusResponse as { properties?: { status?: { enum?: string[] } } } | undefined)
    ?.properties?.status?.enum;
  const order = new Map<string, number>();
  let rank = 0;
  for (const s of status ?? []) {
    if (TERMINAL.has(s)) order.set(s, Number.MAX_SAFE_INTEGER);
    else order.set(s, rank++);
  }
  return order;
}

export function createTaskStates(contract: Contract) {
  const order = stateOrder(contract);
  const tasks = new Map<string, Seen>();

  function remember(taskId: string, seen: Seen) {
    tasks.delete(taskId);
    tasks.set(taskId, seen);
    if (tasks.size > MAX_TASKS) tasks.delete(tasks.keys().next().value as string);
  }

  return {
    accepted(json: unknown, exchangeId: number) {
      const body = json as { taskId?: unknown; status?: unknown } | undefined;
      if (typeof body?.taskId === "string" && typeof body.status === "string")
        remember(body.taskId, { status: body.status, exchangeId });
    },
    polled(taskId: string | undefined, json: unknown, exchangeId: number): TaskViolation[] {
      const body = json as { taskId?: unknown; status?: unknown } | undefined;
      const out: TaskViolation[] = [];
      if (taskId === undefined) return out;
      if (body?.taskId !== taskId)
        out.push({
          rule: "deepcrawl-task-echo",
          message: "the status answer names another task",
          expected: taskId,
          actual: JSON.stringify(body?.taskId),
        });
      const status = typeof body?.status === "string" ? body.status : undefined;
      if (status === undefined || !order.has(status)) return out;
      const before = tasks.get(taskId);
      if (before && TERMINAL.has(before.status) && status !== before.status)
        out.push({
          rule: "deepcrawl-terminal-stays",
          message: `task ${taskId} was ${before.status} (exchange ${before.exchangeId}) and is now ${status}`,
          expected: before.status,
          actual: status,
        });
      else if (
        before &&
        order.has(before.status) &&
        (order.get(status) as number) < (order.get(before.status) as number)
      )
        out.push({
          rule: "deepcrawl-states-forward",
          message: `task ${taskId} moved back from ${before.status} (exchange ${before.exchangeId}) to ${status}`,
          expected: `${before.status} or later`,
          actual: status,
        });
      // a terminal state stays the reference for later polls, whatever a faulty poll said since
      if (!before || !TERMINAL.has(before.status)) remember(taskId, { status, exchangeId });
      return out;
    },
  };
}
