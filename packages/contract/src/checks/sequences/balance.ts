// The balance across paid calls (interface-spec "What the service does", GET /usage: the remaining balance;
// D-charging, D-usage-period): between two balance reads by the same credential, the balance drops by exactly the
// price of the paid calls answered in between: a success costs its price (a batch, its successful entries; a crawl
// answered 404 or 410 too), a refusal or a failure nothing, a deepcrawl accepted its price (given back if the task
// fails). A call charged twice, or not at all, or a refused call charged, shows as a drop that no reading of the
// calls explains.
//
// The rule is two pure functions, `chargeOf` (what one exchange costs, from the contract alone) and `judgeBalance`
// (a window: the read before, the calls' sum, the read after); `balance-charged` runs them over the traffic with a
// tracker of bounded memory. It never reports a window it cannot read for sure, and counts each one it skips, by
// reason: a read that overlapped another request of the same credential (the order of charge and read is then
// unknown), a paid call with no answer or one the contract does not price (an MCP tool call), another credential's
// paid call in between (it may be the same account), a deepcrawl task that may have been refunded meanwhile.
import type { Contract } from "../../contract.ts";
import type { ExchangeContext, SequenceJudge, SequenceRule, Violation } from "../types.ts";

declare module "../types.ts" {
  interface Exchange {
    /**
     * whether another request by the same credential was in flight at some moment while this one was (the proxy
     * knows; a judge that sends one request at a time says false); undefined: not known, and the balance rule skips
     * the reads it would need it for
     */
    concurrent?: boolean;
  }
}

export const BALANCE_RULE_ID = "balance-charged";

/**
 * Credentials a tracker remembers at most, least recently seen dropped first (its open window is then counted as
 * skipped): 4.3 KB each at their fullest (16 open tasks, 5 calls named), measured, so at most about 18 MB.
 */
export const MAX_CREDENTIALS = 4096;
/** Deepcrawl tasks a credential may have running (possibly refunded later) before its windows are no longer judged. */
export const MAX_OPEN_TASKS = 16;
/** Calls named in a violation's message (the window's sum counts them all). */
const SHOWN_CALLS = 5;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

/** What one exchange costs its credential, or why that cannot be told. */
export type Charge = { credits: number } | { unknown: string };

/**
 * The credits an answered exchange took from its credential's balance, by the contract's price table and
 * D-charging. A Payment credential charges nobody's credits (D-payment-charging): callers keep those apart.
 */
export function chargeOf(contract: Contract, ctx: ExchangeContext): Charge {
  const method = ctx.exchange.request.method.toUpperCase();
  if (!ctx.op)
    return method === "GET" || method === "HEAD" ? { credits: 0 } : { unknown: "a call the contract does not price" };
  const opId = ctx.op.operationId;
  if (!contract.prices.get(opId)) return { credits: 0 };
  if (ctx.status === null) return { unknown: `${opId} got no answer (it may have been charged)` };
  const crawlGone = opId === "crawl" && (ctx.status === 404 || ctx.status === 410) && !Array.isArray(ctx.sent);
  if ((ctx.status < 200 || ctx.status > 299) && !crawlGone) return { credits: 0 };
  if (!ctx.sentKnown) return { unknown: `the body of a ${opId} call is not known` };
  if (Array.isArray(ctx.sent)) {
    const items: unknown[] = ctx.sent;
    const value = ctx.json?.ok ? ctx.json.value : undefined;
    if (opId === "crawl") {
      // D-crawl-batch: the array holds the URLs that succeeded, each charged
      if (!Array.isArray(value)) return { unknown: "a crawl batch answered without an array" };
      return { credits: value.length * contract.prices.entryCredits(opId, items[0]) };
    }
    const entries = obj(value)?.results;
    if (!Array.isArray(entries) || entries.length !== items.length)
      return { unknown: `a ${opId} batch whose entries do not match its items` };
    return {
      credits: entries.reduce<number>(
        (sum, e, i) => sum + (obj(e)?.success === true ? contract.prices.entryCredits(opId, items[i]) : 0),
        0,
      ),
    };
  }
  return { credits: contract.prices.requestCredits(opId, ctx.sent) };
}

/** The `usage` of a balance read (GET /usage answered 200), else null. */
export function balanceOf(ctx: ExchangeContext): number | null {
  if (ctx.op?.operationId !== "usage" || ctx.status !== 200 || !ctx.json?.ok) return null;
  const usage = obj(ctx.json.value)?.usage;
  return typeof usage === "number" && Number.isInteger(usage) ? usage : null;
}

export interface BalanceWindow {
  /** the balance read before and after, and the exchanges that answered them (named in the message) */
  before: { usage: number; label: string };
  after: { usage: number; label: string };
  /** the credits the calls answered in between cost, and those calls (the first few, for the message) */
  expected: number;
  calls: number;
  shown: string[];
  /** credits that may have been given back meanwhile (deepcrawl tasks not seen completed) */
  refundable: number;
}

/** A window's verdict: violations, or the reason it cannot be judged (never a violation then). */
export function judgeBalance(w: BalanceWindow): { violations: Violation[]; skipped?: string } {
  const drop = w.before.usage - w.after.usage;
  if (drop === w.expected) return { violations: [] };
  if (drop < w.expected && w.expected - drop <= w.refundable)
    return { violations: [], skipped: "a deepcrawl task may have been refunded in between" };
  const calls =
    w.calls === 0
      ? "no paid call"
      : `${w.calls} call${w.calls > 1 ? "s" : ""}: ${w.shown.join(", ")}${w.calls > w.shown.length ? ", …" : ""}`;
  const how =
    w.expected > 0 && drop === 2 * w.expected
      ? "charged twice"
      : w.expected > 0 && drop === 0
        ? "not charged"
        : drop > w.expected
          ? "charged more than the calls cost"
          : "charged less than the calls cost";
  return {
    violations: [
      {
        rule: BALANCE_RULE_ID,
        message: `${how}: the balance went from ${w.before.usage} (${w.before.label}) to ${w.after.usage} (${w.after.label}), a drop of ${drop}, across ${calls}`,
        expected: `a drop of ${w.expected}`,
        actual: `a drop of ${drop}`,
      },
    ],
  };
}

interface CredentialState {
  /** the last unambiguous balance read, or null (none yet, or the last one overlapped another request) */
  read: { usage: number; label: string } | null;
  expected: number;
  calls: number;
  shown: string[];
  /** why the current window cannot be judged, once known */
  ambiguous: string | null;
  /** deepcrawl tasks accepted and not seen completed, with their price */
  open: Map<string, number>;
  /** more tasks than MAX_OPEN_TASKS were open: refunds can no longer be bounded */
  openOverflow: boolean;
  /** open tasks seen failed in this window: refunded by the time it closes, so no longer open after it */
  failed: string[];
  /** the tracker's count of priced successes by any credential when this window opened */
  othersMark: number;
  ownSinceMark: number;
}

export interface BalanceTracker extends SequenceJudge {
  /** windows not judged, by reason */
  skipped(): Record<string, number>;
  /** windows judged */
  judged(): number;
}

const bearer = /^Bearer\s+(\S+)/i;

/** The credential an exchange is charged to: a bearer token (a Payment credential charges nobody's credits). */
function credentialOf(ctx: ExchangeContext): string | null {
  if (ctx.exchange.request.credential !== undefined) return ctx.exchange.request.credential;
  const m = bearer.exec(ctx.requestHeaders.authorization ?? "");
  return m ? `bearer ${m[1]}` : null;
}

function label(ctx: ExchangeContext, seq: number): string {
  const id = ctx.requestHeaders["x-request-id"];
  return `${ctx.exchange.request.method.toUpperCase()} ${ctx.exchange.request.path.split("?")[0]} #${seq}${id ? ` ${id.slice(0, 40)}` : ""}`;
}

export function createBalanceTracker(contract: Contract): BalanceTracker {
  const credentials = new Map<string, CredentialState>();
  const skips: Record<string, number> = {};
  let judgedWindows = 0;
  let seq = 0;
  /** priced successes by any credential, to see another credential's charges inside a window */
  let pricedSuccesses = 0;

  const skip = (reason: string) => {
    skips[reason] = (skips[reason] ?? 0) + 1;
  };
  const stateOf = (credential: string): CredentialState => {
    let s = credentials.get(credential);
    if (s) credentials.delete(credential);
    else
      s = {
        read: null,
        expected: 0,
        calls: 0,
        shown: [],
        ambiguous: null,
        open: new Map(),
        openOverflow: false,
        failed: [],
        othersMark: 0,
        ownSinceMark: 0,
      };
    credentials.set(credential, s); // most recently seen last
    if (credentials.size > MAX_CREDENTIALS) {
      const [oldest, state] = credentials.entries().next().value as [string, CredentialState];
      credentials.delete(oldest);
      if (state.read) skip("the credential was forgotten (more credentials than the tracker keeps)");
    }
    return s;
  };
  const open = (s: CredentialState, usage: number, l: string) => {
    s.read = { usage, label: l };
    s.expected = 0;
    s.calls = 0;
    s.shown = [];
    s.ambiguous = null;
    s.othersMark = pricedSuccesses;
    s.ownSinceMark = 0;
    for (const t of s.failed) s.open.delete(t);
    s.failed = [];
  };

  return {
    skipped: () => ({ ...skips }),
    judged: () => judgedWindows,
    observe(ctx) {
      seq++;
      const credential = credentialOf(ctx);
      if (credential === null) return [];
      const s = stateOf(credential);
      const usage = balanceOf(ctx);
      if (usage !== null) {
        const here = label(ctx, seq);
        if (ctx.exchange.concurrent !== false) {
          // the read and some call of the same credential overlapped: which came first is unknown
          if (s.read)
            skip(
              ctx.exchange.concurrent
                ? "a balance read overlapped another request of the credential"
                : "the judge does not know whether requests overlapped",
            );
          s.read = null;
          return [];
        }
        const out: Violation[] = [];
        if (s.read) {
          const refundable = s.openOverflow
            ? Number.POSITIVE_INFINITY
            : [...s.open.values()].reduce((a, b) => a + b, 0);
          const others = pricedSuccesses - s.othersMark - s.ownSinceMark;
          if (s.ambiguous) skip(s.ambiguous);
          else if (others > 0) skip("another credential's paid call in between (it may be the same account)");
          else {
            const verdict = judgeBalance({
              before: s.read,
              after: { usage, label: here },
              expected: s.expected,
              calls: s.calls,
              shown: s.shown,
              refundable,
            });
            if (verdict.skipped) skip(verdict.skipped);
            else judgedWindows++;
            out.push(...verdict.violations);
          }
        }
        open(s, usage, here);
        return out;
      }
      const charge = chargeOf(contract, ctx);
      const body = ctx.json?.ok ? obj(ctx.json.value) : undefined;
      // deepcrawl tasks: the price may come back if the task fails (D-charging)
      if (
        ctx.op?.operationId === "deepcrawl" &&
        ctx.status === 202 &&
        typeof body?.taskId === "string" &&
        "credits" in charge
      ) {
        if (s.open.size >= MAX_OPEN_TASKS) s.openOverflow = true;
        else s.open.set(body.taskId, charge.credits);
      }
      if (ctx.op?.operationId === "deepcrawlStatus" && ctx.status === 200 && s.open.has(String(ctx.params.taskId))) {
        if (body?.status === "completed") s.open.delete(String(ctx.params.taskId));
        else if (body?.status === "failed") s.failed.push(String(ctx.params.taskId));
      }
      if ("credits" in charge && charge.credits > 0) {
        pricedSuccesses++;
        s.ownSinceMark++;
      }
      if (!s.read) return [];
      if ("unknown" in charge) s.ambiguous ??= charge.unknown;
      else if (charge.credits > 0) {
        s.expected += charge.credits;
        s.calls++;
        if (s.shown.length < SHOWN_CALLS) s.shown.push(`${label(ctx, seq)} (${charge.credits})`);
      }
      return [];
    },
  };
}

export const balanceCharged: SequenceRule = {
  kind: "sequence",
  id: BALANCE_RULE_ID,
  title:
    "Between two balance reads by the same credential, the balance drops by exactly the price of the paid calls answered in between",
  side: "response",
  severity: "critical",
  basis: "What the service does; GET /usage; D-charging; D-usage-period",
  passive: true,
  needs: ["balance-before", "request-body", "response-body"],
  create: createBalanceTracker,
};
