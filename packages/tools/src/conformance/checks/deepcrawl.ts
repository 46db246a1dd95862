// The deepcrawl lifecycle (interface-spec "POST /deepcrawl", "States and transitions", "Errors"; D-deepcrawl-states,
// D-deepcrawl-zip, D-status-not-found).
import { createSequenceJudges, judgeExchange } from "@plumbline-kit/contract/checks/index";
import { judgedExchange } from "../answer-judge.ts";
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import { deepcrawlProbe } from "../probes/deepcrawl-run.ts";
import type { CheckDefinition, CheckOutcome, Failure, RunContext } from "../types.ts";

/**
 * The forward order of the task states: the status enum of the document in its listed order, up to completed
 * (D-deepcrawl-states); failed may follow any state before completed, not_found is never a known task's state.
 */
function forwardOrder(ctx: RunContext): string[] {
  const schema = ctx.contract.document.components?.schemas?.DeepcrawlStatusResponse as {
    properties: { status: { enum: string[] } };
  };
  const states = schema.properties.status.enum;
  return states.slice(0, states.indexOf("completed") + 1);
}

const accepted: CheckDefinition = {
  id: "deepcrawl-accepted-queued",
  title: "POST /deepcrawl answers 202 at once with a taskId and status queued",
  severity: "critical",
  section: "POST /deepcrawl",
  basis: { kind: "contract" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const { start } = await ctx.probe(deepcrawlProbe);
    const body = json<{ taskId?: unknown; status?: unknown }>(start);
    if (status(start) === 202 && typeof body?.taskId === "string" && body.taskId && body.status === "queued")
      return ok();
    return {
      failures: [
        failure(
          "the start was not a 202 queued task",
          [start],
          '202 {taskId, status: "queued"}',
          `${describe(start)} ${start.response?.text ?? ""}`,
        ),
      ],
    };
  },
};

/** Shared gate: checks after the start need a started task. */
export async function startedRun(ctx: RunContext) {
  const run = await ctx.probe(deepcrawlProbe);
  return run.taskId ? run : null;
}
export const NOT_STARTED: CheckOutcome = { failures: [], skip: "no task was started (see deepcrawl-accepted-queued)" };

const statesForward: CheckDefinition = {
  id: "deepcrawl-states-forward",
  title: "Task states only move forward: queued → waiting → processing → completed, or to failed",
  severity: "major",
  section: "States and transitions",
  basis: { kind: "decision", decision: "D-deepcrawl-states" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const run = await startedRun(ctx);
    if (!run) return NOT_STARTED;
    const failures: Failure[] = [];
    // the order and the ends are the registry's sequence rules (spec/checks/deepcrawl-rules.ts), fed the task's
    // answers in order: the 202, then every poll
    const sequences = createSequenceJudges(ctx.contract, {
      rules: ["deepcrawl-terminal-stays", "deepcrawl-states-forward"],
    });
    const known = new Set(forwardOrder(ctx).concat("failed"));
    for (const s of run.states) {
      for (const v of judgeExchange(ctx.contract, judgedExchange(s.exchange), { rules: [], sequences }))
        failures.push(failure(v.message, [s.exchange], v.expected, v.actual));
      // a task the target issued is never unknown to it
      if (!known.has(s.status))
        failures.push(
          failure(`unexpected state ${s.status} for a known task`, [s.exchange], [...known].join(", "), s.status),
        );
    }
    return { failures, notes: [`states: ${run.states.map((s) => s.status).join(" → ")}`] };
  },
};

const completes: CheckDefinition = {
  id: "deepcrawl-completes",
  title: "A task completes within --timeout and then tells where its packaged result is (r2Key, zipUrl)",
  severity: "critical",
  section: "States and transitions",
  basis: { kind: "contract" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const run = await startedRun(ctx);
    if (!run) return NOT_STARTED;
    const last = run.states.at(-1);
    const shown = last ? [last.exchange] : run.polls.slice(-1);
    if (run.timedOut)
      return {
        failures: [
          failure(
            `not completed within ${ctx.options.timeoutSeconds} s`,
            shown,
            "completed",
            last?.status ?? "no status",
          ),
        ],
      };
    if (run.terminal !== "completed")
      return {
        failures: [
          failure(
            `the task ended ${run.terminal ?? last?.status}`,
            shown,
            "completed",
            last?.exchange.response?.text ?? "",
          ),
        ],
      };
    const done = json<{ zipUrl?: unknown; r2Key?: unknown }>(last?.exchange ?? shown[0]);
    if (typeof done?.zipUrl !== "string" || !/^https?:\/\//.test(done.zipUrl))
      return {
        failures: [failure("completed without a zipUrl", shown, "zipUrl: an http(s) URI", String(done?.zipUrl))],
      };
    if (typeof done.r2Key !== "string" || done.r2Key === "")
      return { failures: [failure("completed without an r2Key", shown, "r2Key: a locator", String(done.r2Key))] };
    return ok();
  },
};

const pollingFree: CheckDefinition = {
  id: "deepcrawl-polling-free",
  title: "Polling the task status costs nothing",
  severity: "critical",
  section: "GET /deepcrawl/status/{taskId}",
  basis: { kind: "contract" },
  operations: ["deepcrawl"],
  probes: [deepcrawlProbe],
  async run(ctx) {
    const run = await startedRun(ctx);
    if (!run) return NOT_STARTED;
    const a = run.afterStart.value;
    const b = run.afterPolls?.value ?? null;
    if (a === null || b === null)
      return { failures: [failure("GET /usage gave no balance", [run.afterStart.exchange])] };
    if (a === b) return ok([`${run.polls.length} polls`]);
    const shown = [run.afterStart.exchange, ...run.polls, ...(run.afterPolls ? [run.afterPolls.exchange] : [])];
    return { failures: [failure(`${run.polls.length} status polls charged ${a - b} credits`, shown, "0", `${a - b}`)] };
  },
};

const UNKNOWN_ID = "dc_plumbline_conformance_unknown";

const unknownId: CheckDefinition = {
  id: "deepcrawl-unknown-id",
  title: "An unknown task id answers 404, or 200 with status not_found",
  severity: "major",
  section: "Errors; States and transitions (not_found)",
  basis: { kind: "contract" },
  operations: ["deepcrawlStatus"],
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "GET", `/deepcrawl/status/${UNKNOWN_ID}`);
    const s = json<{ status?: unknown }>(ex)?.status;
    if (status(ex) === 404 || (status(ex) === 200 && s === "not_found")) return ok();
    return {
      failures: [
        failure(
          "an unknown task id was not reported as unknown",
          [ex],
          "404, or 200 with status not_found",
          `${describe(ex)} status=${String(s)}`,
        ),
      ],
    };
  },
};

const unknownId404: CheckDefinition = {
  id: "deepcrawl-unknown-id-404",
  title: "An unknown task id answers 404 whose body is a status response with status not_found",
  severity: "minor",
  section: "Errors",
  basis: { kind: "decision", decision: "D-status-not-found" },
  operations: ["deepcrawlStatus"],
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "GET", `/deepcrawl/status/${UNKNOWN_ID}-2`);
    const body = json<{ status?: unknown; taskId?: unknown }>(ex);
    if (status(ex) === 404 && body?.status === "not_found" && body.taskId === `${UNKNOWN_ID}-2`) return ok();
    return {
      failures: [
        failure(
          "unknown id not answered as decided",
          [ex],
          `404 {taskId: "${UNKNOWN_ID}-2", status: "not_found"}`,
          `${describe(ex)} ${ex.response?.text ?? ""}`,
        ),
      ],
    };
  },
};

export const DEEPCRAWL_CHECKS = [accepted, statesForward, completes, pollingFree, unknownId, unknownId404];
