// One command of the stateful model, as data (so a failing sequence can be stored and replayed): a paid call
// (search, news, crawl, their batches, deepcrawl start), GET /usage, a status poll, or moving the manual clock.
// After every command the real balance and every task's state must equal the model's.
import type fc from "fast-check";
import { type CheckFailure, fail, PropertyFailure } from "../checks/check-failure.ts";
import type { Fetched } from "../checks/fetch-outcome.ts";
import { readBalance } from "../checks/run-case.ts";
import { conformanceFailures, transportFailures } from "../checks/transport-checks.ts";
import { judgeValidAnswer } from "../checks/valid-answer.ts";
import { waiverFor } from "../checks/waivers.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import { type EndState, lifecycleOf } from "./deepcrawl-states.ts";
import type { Model, Real, TaskModel } from "./model-state.ts";
import { paidCall } from "./paid-call.ts";

export type CommandSpec =
  | { kind: "call"; operationId: string; body: unknown; fetched?: Fetched }
  | { kind: "paid-call"; operationId: string; body: unknown; fetched?: Fetched }
  | { kind: "usage" }
  | { kind: "poll"; task: number }
  | { kind: "poll-unknown"; taskId: string }
  | { kind: "advance"; ms: number };

type Obj = Record<string, unknown>;

export class ModelCommand implements fc.AsyncCommand<Model, Real, false> {
  readonly spec: CommandSpec;
  constructor(spec: CommandSpec) {
    this.spec = spec;
  }

  check(m: Readonly<Model>): boolean {
    if (this.spec.kind === "advance") return m.clock && m.exact !== null;
    if (this.spec.kind === "poll") return m.tasks.length > 0;
    if (this.spec.kind === "paid-call") return m.paying;
    return true;
  }

  async run(m: Model, r: Real): Promise<void> {
    r.log.push(this.spec);
    const failures = await execute(this.spec, m, r);
    if (failures.length === 0) failures.push(...(await verifyModel(m, r)));
    if (failures.length > 0) throw new PropertyFailure(failures);
  }

  toString(): string {
    const s = this.spec;
    if (s.kind === "call") return `${s.operationId}(${JSON.stringify(s.body).slice(0, 160)})`;
    if (s.kind === "paid-call") return `pay:${s.operationId}(${JSON.stringify(s.body).slice(0, 160)})`;
    if (s.kind === "advance") return `advance(${s.ms})`;
    if (s.kind === "poll") return `poll(task ${s.task})`;
    if (s.kind === "poll-unknown") return `poll(${s.taskId})`;
    return "usage()";
  }
}

async function execute(s: CommandSpec, m: Model, r: Real): Promise<CheckFailure[]> {
  if (s.kind === "usage") return [];
  if (s.kind === "advance") {
    const a = await r.client.send({ method: "POST", path: "/__mock/clock/advance", body: { ms: s.ms } }, null);
    if (!a.ok || a.status !== 200)
      return [fail("model-task-state", `could not move the clock: ${a.ok ? a.status : a.message}`)];
    m.now += s.ms;
    return [];
  }
  if (s.kind === "poll") return pollTask(m, r, m.tasks[s.task % m.tasks.length]);
  if (s.kind === "poll-unknown") return pollUnknown(r, s.taskId);
  if (s.kind === "paid-call") return paidCall(s, r);
  const c: FuzzCase = {
    operationId: s.operationId,
    request: { method: "POST", path: r.contract.operation(s.operationId).path, body: s.body },
    violation: null,
    ...(s.fetched ? { fetched: s.fetched } : {}),
  };
  const answer = await r.client.send(c.request, r.key);
  if (!answer.ok) return transportFailures(answer);
  const verdict = judgeValidAnswer(r.contract, c, answer, m.balance, r.fetches);
  const failures = [
    ...transportFailures(answer, verdict.expectedStatus),
    ...conformanceFailures(r.contract, s.operationId, answer, c.request),
    ...verdict.failures,
  ];
  m.balance -= verdict.cost;
  const waiver = waiverFor(r.waivers, c, failures);
  if (waiver) {
    // a known issue may leave the balance anywhere (a batch that crashed midway stays charged): resync the model
    r.waived[waiver.id] = (r.waived[waiver.id] ?? 0) + 1;
    const read = await readBalance(r.client, r.key);
    if (read.ok) m.balance = read.balance;
    return [];
  }
  const taskId = (answer.json as Obj | undefined)?.taskId;
  if (answer.status === 202 && typeof taskId === "string")
    m.tasks.push({ taskId, startedAt: m.now, last: lifecycleOf(r.contract).states[0], ended: null });
  return failures;
}

/** The balance and every task against the model. */
export async function verifyModel(m: Model, r: Real): Promise<CheckFailure[]> {
  const usage = await r.client.read({ method: "GET", path: "/usage" }, r.key);
  if (!usage.ok) return transportFailures(usage);
  // throttled even after waiting as told: nothing to compare, and not the target's fault
  if (usage.status === 429) return [];
  const balance = (usage.json as Obj | undefined)?.usage;
  const out: CheckFailure[] = [];
  if (balance !== m.balance)
    out.push(fail("model-balance", `GET /usage says ${JSON.stringify(balance)}, the model ${m.balance}`));
  for (const t of m.tasks) out.push(...(await pollTask(m, r, t)));
  return out;
}

async function pollTask(m: Model, r: Real, t: TaskModel): Promise<CheckFailure[]> {
  const op = "deepcrawlStatus";
  const answer = await r.client.read(
    { method: "GET", path: `/deepcrawl/status/${encodeURIComponent(t.taskId)}` },
    r.key,
  );
  if (!answer.ok) return transportFailures(answer);
  if (answer.status === 429) return [];
  const out = [...transportFailures(answer), ...conformanceFailures(r.contract, op, answer)];
  const body = (answer.json ?? {}) as Obj;
  const state = body.status;
  const lc = lifecycleOf(r.contract);
  if (answer.status !== 200 || !lc.isState(state)) {
    return [
      ...out,
      fail("model-task-state", `task ${t.taskId}: ${answer.status} with status ${JSON.stringify(state)}`),
    ];
  }
  const where = `task ${t.taskId} at +${m.now - t.startedAt} ms`;
  if (m.exact) {
    const expected = lc.stateAt(m.now - t.startedAt, m.exact);
    if (expected !== "ended" && state !== expected)
      out.push(fail("model-task-state", `${where} is ${state}, the model says ${expected}`));
    if (expected === "ended" && !lc.isEnd(state))
      out.push(fail("model-task-state", `${where} is ${state}, the model says it has ended`));
  }
  if (lc.rank(state) < lc.rank(t.last))
    out.push(fail("model-task-state", `${where} went back from ${t.last} to ${state}`));
  if (t.ended && state !== t.ended) out.push(fail("model-task-state", `${where} ended ${t.ended}, now says ${state}`));
  if (state === "completed" && (typeof body.r2Key !== "string" || typeof body.zipUrl !== "string")) {
    out.push(fail("model-task-state", `${where} is completed without r2Key and zipUrl (D-deepcrawl-states)`));
  }
  if (state === "failed" && typeof body.error !== "string")
    out.push(fail("model-task-state", `${where} failed without an error text`));
  t.last = state;
  if (lc.isEnd(state)) t.ended = state as EndState;
  return out;
}

/** An id the target never issued: 404 (D-status-not-found) or 200, with status not_found either way. */
async function pollUnknown(r: Real, taskId: string): Promise<CheckFailure[]> {
  const answer = await r.client.read({ method: "GET", path: `/deepcrawl/status/${encodeURIComponent(taskId)}` }, r.key);
  if (!answer.ok) return transportFailures(answer);
  if (answer.status === 429) return [];
  const out = [...transportFailures(answer), ...conformanceFailures(r.contract, "deepcrawlStatus", answer)];
  const state = (answer.json as Obj | undefined)?.status;
  if (![200, 404].includes(answer.status) || state !== "not_found") {
    out.push(fail("model-task-state", `unknown task ${taskId}: ${answer.status} with status ${JSON.stringify(state)}`));
  }
  return out;
}
