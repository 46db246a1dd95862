// Credit accounting under load: the balance GET /usage reports after a run must equal the balance before it
// minus the credits of the successful calls the tool counted (charge-counter.ts). Requests that were sent but
// never answered may or may not have been charged; the check allows exactly their price, and says so.
import { retryOn429 } from "@plumbline-kit/contract/http/client";
import type { Sender } from "./http-send.ts";
import type { LimitHeaders } from "./rate-limits.ts";
import type { CreditCheck } from "./types.ts";

export type BalanceRead =
  | { ok: true; balance: number; headers?: LimitHeaders }
  | { ok: false; status: number | null; error: string; headers?: LimitHeaders };

export interface BalanceReadOptions {
  /** 429s waited out as Retry-After says before the read gives up (default 3; issue 27) */
  retries?: number;
  onWait?: (line: string) => void;
}

/**
 * The account's balance from `GET /usage`. A 429 is the target's limit, not its fault: the read waits as Retry-After
 * says and tries again, a bounded number of times (each wait at most 65 s).
 */
export async function readBalance(sender: Sender, apiKey: string, o: BalanceReadOptions = {}): Promise<BalanceRead> {
  const r = await retryOn429(
    () =>
      sender.send(
        { method: "GET", path: "/usage", headers: { authorization: `Bearer ${apiKey}` } },
        { keepBody: true },
      ),
    {
      attempts: (o.retries ?? 3) + 1,
      onWait: (seconds) => o.onWait?.(`GET /usage rate-limited: waiting ${seconds} s (Retry-After)`),
    },
  );
  if (!r.ok) return { ok: false, status: null, error: `GET /usage failed: ${r.error}` };
  if (r.status !== 200)
    return { ok: false, status: r.status, error: `GET /usage answered ${r.status}`, headers: r.headers };
  try {
    const usage = (JSON.parse(r.body) as { usage?: unknown }).usage;
    if (typeof usage === "number" && Number.isInteger(usage)) return { ok: true, balance: usage, headers: r.headers };
  } catch {
    // falls through: not the contract's usage body
  }
  return { ok: false, status: 200, error: "GET /usage did not answer a usage balance", headers: r.headers };
}

export interface AccountingInput {
  start: BalanceRead;
  end: BalanceRead | null;
  counted: number;
  unresolved: number;
  unresolvedCredits: number;
}

export function checkAccounting(i: AccountingInput): CreditCheck {
  if (!i.start.ok) return { checked: false, pass: true, detail: `not checked: ${i.start.error} before the run` };
  if (!i.end) return { checked: false, pass: true, detail: "not checked: disabled for this run" };
  if (!i.end.ok) return { checked: false, pass: false, detail: `${i.end.error} after the run` };
  const spent = i.start.balance - i.end.balance;
  const figures = {
    startBalance: i.start.balance,
    endBalance: i.end.balance,
    spent,
    counted: i.counted,
    unresolved: i.unresolved,
    unresolvedCredits: i.unresolvedCredits,
  };
  const pass = spent >= i.counted && spent <= i.counted + i.unresolvedCredits;
  const allowance = i.unresolved
    ? ` (+ up to ${i.unresolvedCredits} for ${i.unresolved} unanswered request${i.unresolved === 1 ? "" : "s"})`
    : "";
  const detail = pass
    ? `balance ${i.start.balance} → ${i.end.balance}: spent ${spent}, counted ${i.counted}${allowance}`
    : `balance ${i.start.balance} → ${i.end.balance}: spent ${spent} but the successful calls cost ${i.counted}${allowance}; ${spent > i.counted ? "over" : "under"}-charged by ${spent > i.counted ? spent - i.counted - i.unresolvedCredits : i.counted - spent}`;
  return { checked: true, pass, detail, ...figures };
}
