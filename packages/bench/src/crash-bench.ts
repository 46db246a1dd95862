// `plumbline bench crash` (issue 38): kill -9 of the reference mid-burst, N times, on SQLite (and PostgreSQL with
// two instances, one killed, with --database-url): the credits lost (the initial credits minus the ledger minus the
// balance: must be 0), the successes clients saw without a ledger row (must be 0), the holds the dead instance left
// open and that were released, and how long after the kill that took (a restart included: a single SQLite server
// releases them when it starts again). The scenario is the crash test's (test-support/ledger-crash.ts).
import { type CrashOutcome, crashMidBurst, unchargedSuccesses } from "../../../test-support/ledger-crash.ts";

export interface CrashBenchOptions {
  runs?: number;
  searches?: number;
  crawls?: number;
  databaseUrl?: string;
}

export interface CrashRun {
  store: CrashOutcome["store"];
  successesSeen: number;
  ledgerRows: number;
  creditsLost: number;
  uncharged: number;
  holdsRecovered: number;
  creditsRecovered: number;
  restartMs: number;
  recoveryMs: number;
}

export interface CrashBenchResult {
  runs: CrashRun[];
  /** every run lost nothing and charged every success seen */
  intact: boolean;
}

export async function benchCrash(o: CrashBenchOptions = {}): Promise<CrashBenchResult> {
  const runs: CrashRun[] = [];
  const stores: Array<string | undefined> = [undefined, ...(o.databaseUrl ? [o.databaseUrl] : [])];
  for (let i = 0; i < (o.runs ?? 3); i++) {
    for (const databaseUrl of stores) {
      const out = await crashMidBurst({
        databaseUrl,
        schema: "plumbline_crash_bench",
        searches: o.searches ?? 500,
        crawls: o.crawls ?? 20,
      });
      runs.push({
        store: out.store,
        successesSeen: out.calls.filter((c) => c.status === 200).length,
        ledgerRows: out.ledgerRequestIds.size,
        creditsLost: out.creditsLost,
        uncharged: unchargedSuccesses(out).length,
        holdsRecovered: out.orphanedHolds,
        creditsRecovered: out.orphanedCredits,
        restartMs: out.restartMs,
        recoveryMs: out.recoveryMs,
      });
    }
  }
  return { runs, intact: runs.every((r) => r.creditsLost === 0 && r.uncharged === 0) };
}

/** One line per run, then the verdict. */
export function renderCrashBench(r: CrashBenchResult): string {
  const lines = r.runs.map(
    (run, i) =>
      `run ${i + 1} ${run.store}: ${run.successesSeen} successes seen, ${run.ledgerRows} ledger rows, ` +
      `credits lost ${run.creditsLost}, uncharged successes ${run.uncharged}, ` +
      `${run.holdsRecovered} holds (${run.creditsRecovered} credits) recovered ` +
      `${(run.recoveryMs / 1000).toFixed(1)} s after the kill (restart listening at ${(run.restartMs / 1000).toFixed(1)} s)`,
  );
  lines.push(r.intact ? "no credit lost, every success charged" : "CREDITS LOST or a success uncharged");
  return lines.join("\n");
}
