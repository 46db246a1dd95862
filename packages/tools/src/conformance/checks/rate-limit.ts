// Rate limiting (interface-spec "Limits" 4: 429 is the status; D-rate-limits: Retry-After in seconds, the IETF
// RateLimit and RateLimit-Policy headers). One deliberate 429 by default (issue 35): GET /usage is free and listed
// with 429, so the check reads the window the target advertises, sends just enough requests to cross it, judges the
// throttling answer, waits the advertised time and asks once more: the target must serve again. What the 429 owes
// (status, error code, Retry-After within the window, the rate-limit headers) is the contract registry's
// (spec/checks/rate-limit-rules.ts, the rules the proxy and the fuzzer judge every 429 with); this check plans it. A
// Retry-After longer than the advertised window (or than MAX_WAIT_S when no window is advertised) is a failure, not a
// wait. A target that does not refuse within twice the requests its headers (or the stated --rate-limit) allow is a
// skip with the reason, as is one that advertises no limit and is stated none: it has no limit to judge.
// Phase "last": the account's window is used up on purpose, and served again before the traffic checks run.
import { parseRateLimit, parseRateLimitPolicy } from "@plumbline-kit/contract/rate-limit-headers";
import { judgeAnswer } from "../answer-judge.ts";
import { describe, failure, status } from "../check-helpers.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

/** requests in flight at once while crossing the window (a wave never overshoots what is left by more than this) */
const CONCURRENCY = 10;
/** the longest wait believed when the target advertises no window (the clients' Retry-After clamp, spec/http) */
export const MAX_WAIT_S = 65;
const USAGE = "/usage";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the target says of its account window: requests left and the quota (null when it advertises none). */
function advertised(ex: Exchange): { remaining: number | null; quota: number | null; windowSeconds: number | null } {
  const h = ex.response?.headers ?? {};
  const state = parseRateLimit(h.ratelimit);
  const policy = parseRateLimitPolicy(h["ratelimit-policy"]);
  return {
    remaining: state ? state.remaining : null,
    quota: policy ? policy.quota : null,
    windowSeconds: policy ? policy.windowSeconds : null,
  };
}

/**
 * How many requests may go before a 429 is owed: the advertised remainder, else the stated limit; null when the
 * target advertises none and none is stated (D-rate-limits has the headers on every limited answer).
 */
function expectedLimit(ctx: RunContext, first: Exchange): { requests: number; from: string } | null {
  const a = advertised(first);
  if (a.remaining !== null) return { requests: a.remaining + 1, from: `its RateLimit header (r=${a.remaining})` };
  const stated = ctx.options.rateLimit;
  if (stated !== "auto") return { requests: stated.perAccount + 1, from: `--rate-limit ${stated.perAccount}` };
  return null;
}

/** The registry's rules of a throttling answer (spec/checks/rate-limit-rules.ts), in the order they report. */
export const THROTTLE_RULES = ["rate-limit-error-code", "rate-limit-retry-after", "rate-limit-headers"];

/** The throttling answer judged by the registry: error code, Retry-After in seconds within the window, RateLimit headers. */
export function throttleProblems(ctx: RunContext, ex: Exchange): Failure[] {
  if (!ex.response) return [failure("the throttled request got no answer", [ex], "429", ex.error ?? "no answer")];
  return judgeAnswer(ctx.contract, ex, THROTTLE_RULES).map((v) =>
    failure(v.message, [ex], v.expected ?? "", v.actual ?? ""),
  );
}

const throttled: CheckDefinition = {
  id: "rate-limit-retry-after",
  title:
    "Past the account's rate limit the target answers 429 with its error, Retry-After in seconds and the RateLimit headers, and serves again after Retry-After",
  severity: "major",
  section: "Limits 4",
  basis: { kind: "decision", decision: "D-rate-limits" },
  phase: "last",
  // GET /usage is free: crossing the window costs no credit
  cost: () => 0,
  async run(ctx) {
    const by = this.id;
    const call = () => ctx.http.call(by, "GET", USAGE, { noRetry: true });
    const first = await call();
    if (status(first) === 429) return judge(ctx, first, 1, "the window was already used up");
    if (status(first) !== 200)
      return { failures: [failure("GET /usage did not answer 200", [first], "200", describe(first))] };
    const limit = expectedLimit(ctx, first);
    if (!limit)
      return {
        failures: [],
        skip: "GET /usage advertises no rate limit (no RateLimit header) and none is stated (--rate-limit N): no window to cross",
      };
    // a fixed window may roll over while crossing it: room for one more window's worth before giving up
    const budget = 2 * limit.requests + CONCURRENCY;
    let sent = 1;
    let left = limit.requests - 1;
    let limited: Exchange | undefined;
    while (!limited && sent < budget) {
      const n = Math.min(left > 0 ? Math.min(CONCURRENCY, left) : CONCURRENCY, budget - sent);
      const wave = await Promise.all(Array.from({ length: n }, call));
      sent += n;
      limited = wave.find((e) => status(e) === 429);
      const odd = wave.find((e) => status(e) !== 200 && status(e) !== 429);
      if (odd) return { failures: [failure("GET /usage did not answer 200 or 429", [odd], "200", describe(odd))] };
      // the answers of a wave come in any order: the least remainder any of them tells is the window's
      const told = wave.map((e) => advertised(e).remaining).filter((r): r is number => r !== null);
      left = told.length ? Math.min(...told) + 1 : left - n;
    }
    if (!limited)
      return {
        failures: [],
        skip: `no 429 within ${sent} requests of GET /usage (${limit.requests} owed one, from ${limit.from}): the target does not limit this account`,
      };
    return judge(ctx, limited, sent, `${limit.requests} expected from ${limit.from}`);
  },
};

/** The 429's answer judged, then the wait it advertises and one more request, which must be served. */
async function judge(ctx: RunContext, limited: Exchange, sent: number, why: string) {
  const failures = throttleProblems(ctx, limited);
  const notes = [`429 after ${sent} requests (${why})`];
  const headers = limited.response?.headers ?? {};
  const retry = headers["retry-after"]?.trim();
  // no Retry-After in seconds, or one longer than the advertised window: the registry failed it, nothing to wait by
  if (!retry || !/^\d+$/.test(retry) || failures.some((f) => f.message.startsWith("Retry-After "))) {
    notes.push("not waited: no Retry-After in seconds within the advertised window to wait by");
    return { failures, notes };
  }
  const seconds = Number(retry);
  // with no window advertised (rate-limit-headers failed it), the longest wait believed is the clients' clamp
  if (parseRateLimitPolicy(headers["ratelimit-policy"]) === null && seconds > MAX_WAIT_S) {
    failures.push(
      failure(
        `Retry-After ${seconds} s is longer than ${MAX_WAIT_S} s with no window advertised: not waited`,
        [limited],
        `Retry-After ≤ ${MAX_WAIT_S}`,
        retry,
      ),
    );
    return { failures, notes };
  }
  ctx.progress(`  rate-limit: 429 after ${sent} requests; waiting Retry-After ${seconds} s`);
  await sleep(seconds * 1000 + 100);
  const again = await ctx.http.call("rate-limit-retry-after", "GET", USAGE, { noRetry: true });
  if (status(again) !== 200)
    failures.push(
      failure(
        `GET /usage is still refused after waiting Retry-After ${seconds} s`,
        [limited, again],
        "200 once the advertised wait is over",
        describe(again),
      ),
    );
  else notes.push(`served again after waiting Retry-After ${seconds} s`);
  return { failures, notes };
}

export const RATE_LIMIT_CHECKS = [throttled];
