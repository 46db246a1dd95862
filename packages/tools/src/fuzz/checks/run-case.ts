// One case against the target, every check applied: the call, then GET /usage to compare the balance with what
// the call must have cost (its price for valid input, nothing for invalid input; D-charging). The balance before
// is the one read after the previous case, so each case costs two requests.
import type { Contract } from "@plumbline-kit/contract";
import type { FuzzCase } from "../fuzz-case.ts";
import type { HttpClient } from "../http/http-client.ts";
import { type CheckFailure, fail } from "./check-failure.ts";
import { judgeInvalidAnswer } from "./invalid-answer.ts";
import { refusedBySizeCap } from "./size-cap.ts";
import { conformanceFailures, transportFailures } from "./transport-checks.ts";
import { judgeValidAnswer } from "./valid-answer.ts";

export interface CaseEnv {
  contract: Contract;
  client: HttpClient;
  /** the API key of the account the cases spend */
  key: string;
  /** the balance last read (null: read it first) */
  balance: number | null;
  /** the target really fetches URLs: the fixture outcomes stored with a case hold (judgeValidAnswer) */
  fetches: boolean;
  /** credits still to spend (--max-credits): a valid case whose price is over it is not sent */
  budget?: { remaining: number };
}

export interface CaseResult {
  failures: CheckFailure[];
  status: number | null;
  throttled: boolean;
  /** not sent: its price is over what the credit budget has left */
  unsent?: boolean;
}

export type BalanceRead =
  | {
      ok: true;
      balance: number;
      /** the RateLimit-Policy header of the answer, when the target advertises its limits */
      ratePolicy?: string;
    }
  | { ok: false; failure: CheckFailure }
  /** the target's rate limit held the read back, even after waiting as told: not the target's fault */
  | { ok: false; throttled: true };

export async function readBalance(client: HttpClient, key: string): Promise<BalanceRead> {
  const r = await client.read({ method: "GET", path: "/usage" }, key);
  if (!r.ok)
    return {
      ok: false,
      failure: fail(r.kind === "timeout" ? "no-hang" : "no-dropped-connection", `GET /usage: ${r.message}`),
    };
  if (r.status === 429) return { ok: false, throttled: true };
  const usage = (r.json as { usage?: unknown } | undefined)?.usage;
  if (r.status !== 200 || typeof usage !== "number") {
    return { ok: false, failure: fail("charge-exact", `GET /usage answered ${r.status} without a usage number`) };
  }
  const policy = r.headers["ratelimit-policy"];
  const ratePolicy = Array.isArray(policy) ? policy.join(", ") : policy;
  return ratePolicy ? { ok: true, balance: usage, ratePolicy } : { ok: true, balance: usage };
}

export async function runCase(env: CaseEnv, c: FuzzCase): Promise<CaseResult> {
  if (env.budget && !c.violation) {
    const price = env.contract.prices.requestCredits(c.operationId, c.request.body);
    if (price > env.budget.remaining) return { failures: [], status: null, throttled: false, unsent: true };
  }
  if (env.balance === null) {
    const first = await readBalance(env.client, env.key);
    if (!first.ok && "throttled" in first) return { failures: [], status: null, throttled: true };
    if (!first.ok) return { failures: [first.failure], status: null, throttled: false };
    env.balance = first.balance;
  }
  const before = env.balance;
  const answer = await env.client.send(c.request, env.key);
  if (!answer.ok) {
    env.balance = null;
    return { failures: transportFailures(answer), status: null, throttled: false };
  }
  const failures = conformanceFailures(env.contract, c.operationId, answer, c.request);
  let cost = 0;
  let throttled = answer.status === 429;
  let expected: number | null = null;
  if (refusedBySizeCap(c.request, answer)) {
    // refused before validation by the server's size cap: nothing to judge but that nothing was charged
  } else if (c.violation) failures.push(...judgeInvalidAnswer(c, answer));
  else {
    const verdict = judgeValidAnswer(env.contract, c, answer, before, env.fetches);
    failures.push(...verdict.failures);
    cost = verdict.cost;
    throttled = verdict.throttled;
    expected = verdict.expectedStatus;
  }
  failures.unshift(...transportFailures(answer, expected));
  const after = await readBalance(env.client, env.key);
  if (!after.ok) {
    env.balance = null;
    // a throttled read leaves the charge unknown: the case is counted throttled, its other findings stand
    if ("throttled" in after) return { failures, status: answer.status, throttled: true };
    return { failures: [...failures, after.failure], status: answer.status, throttled };
  }
  env.balance = after.balance;
  if (env.budget) env.budget.remaining -= Math.max(0, before - after.balance);
  if (before - after.balance !== cost) {
    const check = c.violation ? "rejected-not-charged" : "charge-exact";
    failures.push(
      fail(check, `balance ${before} → ${after.balance} (charged ${before - after.balance}); expected ${cost}`),
    );
  }
  return { failures, status: answer.status, throttled };
}
