// runLoadAccount(): `plumbline load account`, the credit accounting of a run an engine made from an exported script.
// A distributed run has no one process that sees the balance before and after, so the account is two steps around it:
// `--before` reads `GET /usage` and records the balance in a state file; after the run, `--report FILE` reads what the
// script counted (the credits of the successful calls, priced from the spec by the same code `plumbline load` uses,
// and the paid requests never answered) from the engine's JSON report, reads the balance again, and checks, as
// `plumbline load` does (credit-accounting.ts), that the balance fell by exactly that (up to the unanswered ones).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type BalanceRead, checkAccounting, readBalance } from "../credit-accounting.ts";
import { createSender } from "../http-send.ts";
import { checkTarget } from "../target-guard.ts";
import type { CreditCheck } from "../types.ts";
import { DEFAULT_ACCOUNT_STATE } from "./export-defaults.ts";
import { artilleryBase, artilleryCredit, CREDIT_COUNTERS, K6, k6Credit } from "./metric-names.ts";

export { DEFAULT_ACCOUNT_STATE };

export interface LoadAccountOptions {
  target: string;
  apiKey: string;
  /** record the balance before the run (into `state`) instead of checking one */
  before?: boolean;
  /** the engine's JSON report: `artillery run --output FILE`, or `k6 run --summary-export FILE` */
  report?: string;
  /** the state file `--before` writes and the check reads (default plumbline-account.json) */
  state?: string;
  /** the balance before the run, stated instead of a state file */
  startBalance?: number;
  /** a line when a /usage read waits out a 429 */
  onWait?: (line: string) => void;
}

/** What the exported script counted, as the engine reported it. */
export interface ReportedCounts {
  engine: "artillery" | "k6";
  counted: number;
  unansweredRequests: number;
  unansweredMax: number;
  throttled: number;
  heldBack: number;
}

export type LoadAccount =
  | { ok: true; exitCode: 0; mode: "before"; balance: number; state: string }
  | { ok: true; exitCode: 0 | 1; mode: "check"; credits: CreditCheck; reported: ReportedCounts }
  | { ok: false; exitCode: 2; error: string };

interface StateFile {
  tool: "plumbline load account";
  target: string;
  balance: number;
  at: string;
}

const cannot = (error: string): LoadAccount => ({ ok: false, exitCode: 2, error });
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The script's counters from an Artillery report (aggregate.counters) or a k6 summary (metrics.NAME[.values].count). */
export function readReportedCounts(raw: unknown): { ok: true; value: ReportedCounts } | { ok: false; error: string } {
  const doc = raw as Record<string, unknown> | null;
  const artillery = (doc?.aggregate as { counters?: Record<string, unknown> } | undefined)?.counters;
  const k6 = doc?.metrics as Record<string, { count?: unknown; values?: { count?: unknown } }> | undefined;
  // k6 leaves out a counter nothing was added to: in a summary of a plumbline script, that is a zero
  const ours = !!k6 && Object.keys(k6).some((name) => name.startsWith("plumbline_"));
  const get = artillery
    ? (name: string) => artillery[name]
    : k6
      ? (name: string) => (k6[name] ? (k6[name].values?.count ?? k6[name].count) : ours ? 0 : undefined)
      : null;
  if (!get) return { ok: false, error: "not an Artillery report (aggregate.counters) nor a k6 summary (metrics)" };
  const credit = (name: string) => get(artillery ? artilleryCredit(name) : k6Credit(name));
  const counted = credit(CREDIT_COUNTERS.counted);
  const unansweredRequests = credit(CREDIT_COUNTERS.unansweredRequests) ?? 0;
  const unansweredMax = credit(CREDIT_COUNTERS.unansweredMax) ?? 0;
  if (counted === undefined)
    return {
      ok: false,
      error: "it holds no plumbline credit counters: was it written by a script of `plumbline load export`?",
    };
  for (const [what, v] of Object.entries({ counted, unansweredRequests, unansweredMax }))
    if (!isCount(v)) return { ok: false, error: `its ${what} count is not a whole number >= 0 (${JSON.stringify(v)})` };
  const other = (a: string, k: string) => {
    const v = artillery ? get(`${artilleryBase("overall")}.${a}`) : get(k);
    return isCount(v) ? v : 0;
  };
  return {
    ok: true,
    value: {
      engine: artillery ? "artillery" : "k6",
      counted: counted as number,
      unansweredRequests: unansweredRequests as number,
      unansweredMax: unansweredMax as number,
      throttled: other("throttled", K6.throttled),
      heldBack: other("held_back", K6.heldBack),
    },
  };
}

async function balanceNow(o: LoadAccountOptions, url: URL): Promise<BalanceRead> {
  const sender = createSender(url, 1);
  try {
    return await readBalance(sender, o.apiKey, { onWait: o.onWait });
  } finally {
    await sender.close();
  }
}

export async function runLoadAccount(o: LoadAccountOptions): Promise<LoadAccount> {
  const target = checkTarget(o.target, true);
  if (!target.ok) return cannot(target.error);
  if (!o.apiKey) return cannot("--api-key is required (or $PLUMBLINE_API_KEY)");
  if (o.before && o.report) return cannot("--before records the balance before a run, --report checks one: give one");
  if (!o.before && !o.report) return cannot("give --before (before the run) or --report FILE (after it)");
  if (o.startBalance !== undefined && !isCount(o.startBalance))
    return cannot(`--start-balance takes a whole number >= 0, not ${o.startBalance}`);
  if (o.startBalance !== undefined && (o.before || o.state !== undefined))
    return cannot("--start-balance replaces the state file: give it without --before and --state");
  const statePath = resolve(o.state ?? DEFAULT_ACCOUNT_STATE);
  const origin = target.url.href.replace(/\/$/, "");

  if (o.before) {
    const read = await balanceNow(o, target.url);
    if (!read.ok) return cannot(`cannot read the balance before the run: ${read.error}`);
    const state: StateFile = {
      tool: "plumbline load account",
      target: origin,
      balance: read.balance,
      at: new Date().toISOString(),
    };
    try {
      writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
    } catch (err) {
      return cannot(`cannot write ${statePath}: ${(err as Error).message}`);
    }
    return { ok: true, exitCode: 0, mode: "before", balance: read.balance, state: statePath };
  }

  let start = o.startBalance;
  if (start === undefined) {
    if (!existsSync(statePath))
      return cannot(
        `no balance from before the run: ${statePath} does not exist (run \`plumbline load account --before\` first, or give --start-balance N)`,
      );
    let state: Partial<StateFile>;
    try {
      state = JSON.parse(readFileSync(statePath, "utf8")) as Partial<StateFile>;
    } catch (err) {
      return cannot(`${statePath}: ${(err as Error).message}`);
    }
    if (state.tool !== "plumbline load account" || !isCount(state.balance))
      return cannot(`${statePath} is not a state file of \`plumbline load account --before\``);
    if (state.target !== origin) return cannot(`${statePath} holds the balance of ${state.target}, not of ${origin}`);
    start = state.balance;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(o.report as string, "utf8"));
  } catch (err) {
    return cannot(`--report ${o.report}: ${(err as Error).message}`);
  }
  const reported = readReportedCounts(raw);
  if (!reported.ok) return cannot(`--report ${o.report}: ${reported.error}`);
  const end = await balanceNow(o, target.url);
  if (!end.ok && end.status === null) return cannot(`cannot reach ${target.url.origin}: ${end.error}`);
  const credits = checkAccounting({
    start: { ok: true, balance: start },
    end,
    counted: reported.value.counted,
    unresolved: reported.value.unansweredRequests,
    unresolvedCredits: reported.value.unansweredMax,
  });
  return { ok: true, exitCode: credits.pass ? 0 : 1, mode: "check", credits, reported: reported.value };
}
