// Deepcrawl tasks (interface-spec "Deepcrawl task", "States and transitions"; D-deepcrawl-states,
// D-deepcrawl-success): a status answer names the task polled and, before the task has finished, carries no
// `success` (the TypeScript client stops at the first one it reads); across polls, a state only moves forward and
// completed and failed are ends. The order of the states is the document's (the status enum, as it lists them).
import type { Contract } from "../contract.ts";
import type { JsonSchema } from "../json-schema.ts";
import type { ExchangeContext, ExchangeRule, SequenceRule, Violation } from "./types.ts";

const TERMINAL = new Set(["completed", "failed"]);
/** tasks a tracker remembers at most; the oldest is dropped */
const MAX_TASKS = 10_000;

function statusEnum(contract: Contract): string[] {
  const s = contract.document.components?.schemas?.DeepcrawlStatusResponse as JsonSchema | undefined;
  return (s?.properties?.status?.enum ?? []).filter((v): v is string => typeof v === "string");
}

/** The states of an unfinished task: those the status enum lists before `completed`. */
export function unfinishedStates(contract: Contract): Set<string> {
  const states = statusEnum(contract);
  return new Set(states.slice(0, Math.max(0, states.indexOf("completed"))));
}

type Body = { taskId?: unknown; status?: unknown; success?: unknown };
const statusBody = (ctx: ExchangeContext): Body | null =>
  ctx.op?.operationId === "deepcrawlStatus" && ctx.status === 200 && ctx.json?.ok
    ? ((ctx.json.value ?? {}) as Body)
    : null;

export const taskEcho: ExchangeRule = {
  kind: "exchange",
  id: "deepcrawl-task-echo",
  title: "A deepcrawl status answer names the task polled",
  side: "response",
  severity: "major",
  basis: "GET /deepcrawl/status/{taskId}",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const body = statusBody(ctx);
    const taskId = ctx.params.taskId;
    if (!body || taskId === undefined || body.taskId === taskId) return [];
    return [
      {
        rule: this.id,
        message: "the status answer names another task",
        expected: taskId,
        actual: JSON.stringify(body.taskId),
      },
    ];
  },
};

export const successUnfinished: ExchangeRule = {
  kind: "exchange",
  id: "client-deepcrawl-success-unfinished",
  title: "A deepcrawl status answer carries no `success` before the task has finished",
  side: "response",
  severity: "major",
  basis: "Deepcrawl task; D-deepcrawl-success (client: @search1api/client 0.2.1)",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const body = statusBody(ctx);
    if (!body || typeof body.status !== "string" || typeof body.success !== "boolean") return [];
    if (!unfinishedStates(ctx.contract).has(body.status)) return [];
    return [
      {
        rule: this.id,
        message: `a ${body.status} task answered success: ${body.success}`,
        expected: "no success member until completed or failed",
        actual: `success: ${body.success}`,
      },
    ];
  },
};

interface Seen {
  status: string;
  /** which observation it was (1 for the first exchange the tracker saw) */
  seq: number;
}

/** One tracker for both state rules: it reports under deepcrawl-terminal-stays or deepcrawl-states-forward. */
function taskTracker(contract: Contract, rule: "deepcrawl-terminal-stays" | "deepcrawl-states-forward") {
  const order = new Map<string, number>();
  let rank = 0;
  for (const s of statusEnum(contract)) order.set(s, TERMINAL.has(s) ? Number.MAX_SAFE_INTEGER : rank++);
  const tasks = new Map<string, Seen>();
  let seq = 0;
  const remember = (taskId: string, seen: Seen) => {
    tasks.delete(taskId);
    tasks.set(taskId, seen);
    if (tasks.size > MAX_TASKS) tasks.delete(tasks.keys().next().value as string);
  };
  return {
    observe(ctx: ExchangeContext): Violation[] {
      seq++;
      const id = ctx.op?.operationId;
      if (!ctx.json?.ok || ctx.status === null) return [];
      const body = (ctx.json.value ?? {}) as Body;
      if (id === "deepcrawl" && ctx.status === 202) {
        if (typeof body.taskId === "string" && typeof body.status === "string")
          remember(body.taskId, { status: body.status, seq });
        return [];
      }
      const taskId = ctx.params.taskId;
      if (id !== "deepcrawlStatus" || ctx.status !== 200 || taskId === undefined) return [];
      const status = typeof body.status === "string" ? body.status : undefined;
      if (status === undefined || !order.has(status)) return [];
      const before = tasks.get(taskId);
      const out: Violation[] = [];
      if (before && TERMINAL.has(before.status) && status !== before.status) {
        if (rule === "deepcrawl-terminal-stays")
          out.push({
            rule,
            message: `task ${taskId} was ${before.status} and is now ${status}`,
            expected: before.status,
            actual: status,
          });
      } else if (
        before &&
        order.has(before.status) &&
        (order.get(status) as number) < (order.get(before.status) as number) &&
        rule === "deepcrawl-states-forward"
      )
        out.push({
          rule,
          message: `task ${taskId} moved back from ${before.status} to ${status}`,
          expected: `${before.status} or later`,
          actual: status,
        });
      // a terminal state stays the reference for later polls, whatever a faulty poll said since
      if (!before || !TERMINAL.has(before.status)) remember(taskId, { status, seq });
      return out;
    },
  };
}

export const terminalStays: SequenceRule = {
  kind: "sequence",
  id: "deepcrawl-terminal-stays",
  title: "A task seen completed or failed reports the same state on every later poll",
  side: "response",
  severity: "major",
  basis: "States and transitions; D-deepcrawl-states",
  passive: true,
  needs: ["earlier-polls", "response-body"],
  create: (contract) => taskTracker(contract, "deepcrawl-terminal-stays"),
};

export const statesForward: SequenceRule = {
  kind: "sequence",
  id: "deepcrawl-states-forward",
  title: "A task's state only moves forward: queued → waiting → processing → completed or failed",
  side: "response",
  severity: "minor",
  basis: "States and transitions; D-deepcrawl-states",
  passive: true,
  needs: ["earlier-polls", "response-body"],
  create: (contract) => taskTracker(contract, "deepcrawl-states-forward"),
};
