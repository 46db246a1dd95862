// Replays corpus entries against a target with the same checks the properties run: a case on a fresh funded
// account (or the given key), a command sequence through the same model. `npm test` replays fuzz/corpus/ on
// the mock (fuzz/test/replay.test.ts); `plumbline fuzz --replay FILE` does it against any target.
import type { Contract } from "@plumbline-kit/contract";
import { type CheckFailure, PropertyFailure } from "../checks/check-failure.ts";
import { runCase } from "../checks/run-case.ts";
import { type Waiver, waiverFor } from "../checks/waivers.ts";
import type { HttpClient } from "../http/http-client.ts";
import { createAccount } from "../http/mock-admin.ts";
import type { TargetInfo } from "../http/target-probe.ts";
import { ModelCommand, verifyModel } from "../model/model-command.ts";
import { startModelRun } from "../model/model-property.ts";
import type { CorpusEntry } from "./corpus-entry.ts";

export interface ReplayContext {
  contract: Contract;
  client: HttpClient;
  target: TargetInfo;
  apiKey: string;
  waivers?: readonly Waiver[];
}

export interface ReplayOutcome {
  id: string;
  passed: boolean;
  failures: CheckFailure[];
  /** the waiver that covers the failures, when one does */
  waived: string | null;
}

const FUNDED = 1_000_000_000;

export async function replayEntry(ctx: ReplayContext, entry: CorpusEntry): Promise<ReplayOutcome> {
  const failures = entry.case ? await replayCase(ctx, entry) : await replaySequence(ctx, entry);
  const waiver = entry.case ? waiverFor(ctx.waivers ?? [], entry.case, failures) : null;
  return { id: entry.id, passed: failures.length === 0 || waiver !== null, failures, waived: waiver?.id ?? null };
}

async function replayCase(ctx: ReplayContext, entry: CorpusEntry): Promise<CheckFailure[]> {
  let key = ctx.apiKey;
  if (ctx.target.admin) {
    const account = await createAccount(ctx.client, FUNDED);
    if (account.ok) key = account.value;
  }
  const env = { contract: ctx.contract, client: ctx.client, key, balance: null, fetches: !ctx.target.admin };
  return (await runCase(env, entry.case as NonNullable<CorpusEntry["case"]>)).failures;
}

async function replaySequence(ctx: ReplayContext, entry: CorpusEntry): Promise<CheckFailure[]> {
  const seq = entry.sequence as NonNullable<CorpusEntry["sequence"]>;
  const setup = { ...ctx, cases: [], waivers: ctx.waivers ?? [] };
  try {
    const { model, real } = await startModelRun(setup, seq.credits);
    const initial = await verifyModel(model, real);
    if (initial.length > 0) return initial;
    for (const spec of seq.commands) {
      const cmd = new ModelCommand(spec);
      if (cmd.check(model)) await cmd.run(model, real);
    }
    return [];
  } catch (e) {
    if (e instanceof PropertyFailure) return e.failures;
    throw e;
  }
}
