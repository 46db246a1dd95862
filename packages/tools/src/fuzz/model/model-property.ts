// The stateful property (issue 6): fast-check commands over the model of one account. On a target that advertises
// /__mock each run gets a fresh account with a generated balance (small, so 402 and batches that run out midway
// come up) and, with a manual clock, the clock commands; elsewhere (a real clock, no admin API) the run spends the
// given key and never moves a clock. Only the selected operations (--operations) make commands: status polls come with
// deepcrawl.

import type { Contract } from "@plumbline-kit/contract";
import fc from "fast-check";
import type { OperationCases } from "../arbitraries/operation-cases.ts";
import { fail, PropertyFailure } from "../checks/check-failure.ts";
import { readBalance } from "../checks/run-case.ts";
import type { Waiver } from "../checks/waivers.ts";
import type { HttpClient } from "../http/http-client.ts";
import { createAccount } from "../http/mock-admin.ts";
import type { TargetInfo } from "../http/target-probe.ts";
import type { InFlight } from "../properties/in-flight.ts";
import { type CommandSpec, ModelCommand, verifyModel } from "./model-command.ts";
import type { Model, Real } from "./model-state.ts";

/** The operations whose calls the model drives (issue 6: search, news, crawl, batch, deepcrawl start; and sitemap). */
export const MODEL_OPERATIONS = ["search", "news", "crawl", "sitemap", "deepcrawl"];
/**
 * Operations the model drives only when `--operations` names them (issue 11: `--operations screenshot`): an image is slow to
 * render by nature, and an unrestricted run keeps its commands for the balance and task rules.
 */
const ON_REQUEST = ["screenshot"];

/** The operations the model drives for an `--operations` list (none: every operation is fuzzed). */
export function modelOperations(only?: readonly string[]): string[] {
  return [...MODEL_OPERATIONS, ...ON_REQUEST.filter((id) => only?.includes(id))];
}
/** The operation whose tasks the status polls follow. */
const TASKS_OPERATION = "deepcrawl";

export interface ModelInput {
  credits: number;
  commands: Iterable<fc.AsyncCommand<Model, Real, false>>;
}

export interface ModelStats {
  runs: number;
  commands: number;
  waived: Record<string, number>;
  firstFailureAt: number | null;
}

export interface ModelSetup {
  contract: Contract;
  client: HttpClient;
  target: TargetInfo;
  apiKey: string;
  cases: OperationCases[];
  maxCommands?: number;
  waivers?: readonly Waiver[];
  /** the run's --operations list */
  only?: readonly string[];
  /** the target's test payment key: the model pays for calls too (--payment-key) */
  paymentKey?: string;
}

function advanceArbitrary(target: TargetInfo): fc.Arbitrary<number> {
  const s = target.steps ?? { queuedMs: 1000, waitingMs: 1000, processingMs: 3000 };
  const total = s.queuedMs + s.waitingMs + s.processingMs;
  const edges = [1, s.queuedMs - 1, s.queuedMs, s.queuedMs + 1, s.waitingMs, s.processingMs, total].filter(
    (v) => v >= 0,
  );
  return fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max: total + 1000 }));
}

export function modelCommands(setup: ModelSetup): fc.Arbitrary<ModelCommand>[] {
  const cmd = (spec: CommandSpec) => new ModelCommand(spec);
  const driven = modelOperations(setup.only);
  const selected = setup.cases.filter((c) => driven.includes(c.operationId));
  const calls = selected.map((c) =>
    c.valid.map((v) =>
      cmd({
        kind: "call",
        operationId: v.operationId,
        body: v.request.body,
        ...(v.fetched ? { fetched: v.fetched } : {}),
      }),
    ),
  );
  const out = [...calls, fc.constant(cmd({ kind: "usage" }))];
  if (setup.paymentKey) {
    // paying commands: every selected operation but deepcrawl (a paid start's task is not the model account's), as
    // one choice among the others, so they do not crowd out the account's own calls (each is three requests)
    const paying = selected
      .filter((x) => x.operationId !== TASKS_OPERATION)
      .map((c) =>
        c.valid.map((v) =>
          cmd({
            kind: "paid-call",
            operationId: v.operationId,
            body: v.request.body,
            ...(v.fetched ? { fetched: v.fetched } : {}),
          }),
        ),
      );
    if (paying.length > 0) out.push(fc.oneof(...paying));
  }
  if (selected.some((c) => c.operationId === TASKS_OPERATION)) {
    out.push(
      fc.nat(16).map((task) => cmd({ kind: "poll", task })),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((taskId) => cmd({ kind: "poll-unknown", taskId })),
    );
  }
  if (setup.target.admin && setup.target.clock === "manual") {
    const advance = advanceArbitrary(setup.target).map((ms) => cmd({ kind: "advance", ms }));
    out.push(advance, advance);
  }
  return out;
}

/** Starts a run: the account, the model, and the real side. */
export async function startModelRun(
  setup: ModelSetup,
  credits: number,
  waived: Record<string, number> = {},
): Promise<{ model: Model; real: Real }> {
  let key = setup.apiKey;
  let balance = credits;
  if (setup.target.admin) {
    const account = await createAccount(setup.client, credits);
    if (!account.ok)
      throw new PropertyFailure([fail("model-balance", `could not create an account: ${account.reason}`)]);
    key = account.value;
  } else {
    const read = await readBalance(setup.client, key);
    // a balance the target's rate limit holds back, even after waiting as told, skips this sequence: no finding
    fc.pre(read.ok || !("throttled" in read));
    if (!read.ok) throw new PropertyFailure("failure" in read ? [read.failure] : []);
    balance = read.balance;
  }
  const manual = setup.target.admin && setup.target.clock === "manual";
  const model: Model = {
    balance,
    tasks: [],
    now: 0,
    exact: manual ? setup.target.steps : null,
    clock: manual,
    paying: Boolean(setup.paymentKey),
  };
  const real: Real = {
    contract: setup.contract,
    client: setup.client,
    key,
    fetches: !setup.target.admin,
    log: [],
    waivers: setup.waivers ?? [],
    waived,
    paymentKey: setup.paymentKey,
  };
  return { model, real };
}

export function modelProperty(
  setup: ModelSetup,
  stats: ModelStats,
  inFlight?: InFlight,
): fc.IAsyncPropertyWithHooks<[ModelInput]> {
  // small balances put 402 and batches that run out midway within reach of a few commands
  const credits = fc.oneof(fc.constantFrom(0, 1, 19, 20, 21, 60), fc.integer({ min: 0, max: 200 }));
  const input = fc.record({
    credits,
    commands: fc.commands(modelCommands(setup), { maxCommands: setup.maxCommands ?? 20 }),
  });
  const run = async ({ credits: c, commands }: ModelInput) => {
    const { model, real } = await startModelRun(setup, c, stats.waived);
    stats.runs++;
    // the initial state must hold before any command (a fresh account carries its balance)
    const initial = await verifyModel(model, real);
    if (initial.length > 0) {
      stats.firstFailureAt ??= performance.now();
      throw new PropertyFailure(initial);
    }
    try {
      await fc.asyncModelRun(() => ({ model, real }), commands);
    } catch (e) {
      stats.firstFailureAt ??= performance.now();
      throw e;
    } finally {
      stats.commands += real.log.length;
    }
  };
  return fc.asyncProperty(input, (i) => (inFlight ? inFlight.track(run(i)) : run(i)));
}

/**
 * The commands a counterexample actually ran, as data. fast-check wraps each command and flags the ones that ran
 * (its CommandWrapper `hasRan`, also what its own report prints); a command skipped by `check` is not replayed.
 */
export function executedSpecs(input: ModelInput): CommandSpec[] {
  const out: CommandSpec[] = [];
  for (const item of input.commands) {
    const w = item as unknown as { hasRan?: boolean; cmd?: unknown };
    const cmd = w.cmd instanceof ModelCommand ? w.cmd : item instanceof ModelCommand ? item : null;
    if (cmd && w.hasRan !== false) out.push(cmd.spec);
  }
  return out;
}
