// Load within the target's limits (issue 27). A rate-limited target (every real deployment; the mock and the
// reference by default, D-rate-limits: 200 requests per 60 s per account, /screenshot 10) answers a load run that
// ignores its limits with 429s, which the run would count as errors. Instead, by default:
// - the limits are read from the target's advertised `RateLimit-Policy` / `RateLimit` headers (the answer to the
//   run's first `GET /usage`, then every answer), or taken as stated (`--rate-limit N[,operation=M]`, per 60 s);
// - the run is an open loop at just under the rate the account's policy allows, and an arrival that would exceed a
//   window it draws on (the account's, an operation's own) is held back: not sent, counted and reported;
// - a 429 that respects the advertised policy (it carries Retry-After and the RateLimit headers) is throttling:
//   reported, not an error, and the policy it names is paused for Retry-After; a 429 without them is an error;
// - the report says how much load the limits allowed, and which thresholds could not be judged at that rate.
// `--ignore-rate-limits` keeps the old behaviour, for a target whose operator lifted the limits for the test key.
// The headers are read with spec/rate-limit-headers.ts, the same code the fuzzer paces itself with.
import {
  parseRateLimit,
  parseRateLimitOption,
  parseRateLimitPolicy,
  type RateLimitPolicyState,
  retryAfterSeconds,
  routeOf,
} from "@plumbline-kit/contract/rate-limit-headers";
import type { RequestTemplate } from "./request-plan.ts";

/** `auto` (default), `ignore` (--ignore-rate-limits), or limits stated per 60 s window (--rate-limit). */
export type LoadRateLimitSetting = "auto" | "ignore" | { perAccount: number; perOperation: Record<string, number> };

export const STATED_WINDOW_SECONDS = 60;

/** `auto`, `N` or `N,screenshot=M` (requests per 60 s: the account's, then operations' own windows). */
export const parseLoadRateLimit = (text: string): LoadRateLimitSetting => parseRateLimitOption(text);

/** The headers a limiter reads from an answer (lower-case names). */
export type LimitHeaders = Partial<Record<"ratelimit" | "ratelimit-policy" | "retry-after", string>>;

/** Of an answer's raw header pairs, the ones a limiter reads. */
export function limitHeaders(raw: Array<Buffer | string> | Record<string, unknown> | undefined): LimitHeaders {
  const out: LimitHeaders = {};
  if (!raw) return out;
  const pairs: Array<[string, string]> = Array.isArray(raw)
    ? Array.from({ length: Math.floor(raw.length / 2) }, (_, i) => [String(raw[2 * i]), String(raw[2 * i + 1])])
    : Object.entries(raw).map(([k, v]) => [k, String(v)]);
  for (const [k, v] of pairs) {
    const name = k.toLowerCase();
    if (name === "ratelimit" || name === "ratelimit-policy" || name === "retry-after") out[name] = v;
  }
  return out;
}

interface Window {
  remaining: number;
  resetAt: number;
}

export interface LimitPolicy {
  policy: string;
  quota: number;
  windowSeconds: number;
}

export interface Limiter {
  /** Reserves room for a request in every window it draws on; false: hold it back (not sent). */
  admit(t: RequestTemplate, now?: number): boolean;
  /** Learns from an answer; for a 429, whether it respects the advertised policy (throttling, not an error). */
  answered(t: RequestTemplate, status: number, headers: LimitHeaders, now?: number): { throttled: boolean };
  /** Learns from an answer to a request the limiter did not admit (the run's own /usage reads, setup steps). */
  learn(path: string, status: number, headers: LimitHeaders, now?: number): { throttled: boolean };
  /** A request that got no answer frees its reservation's in-flight count. */
  unanswered(t: RequestTemplate): void;
  /** The policies known so far (advertised or stated). */
  policies(): LimitPolicy[];
  /** requests per second the account's policy allows, or null when no account policy is known */
  accountRate(): number | null;
}

const ACCOUNT = "default";

/**
 * Authenticated requests draw on the account's window and, once an answer named one, their route's own (the
 * RateLimit header names the tightest policy of a request). Unauthenticated ones (health, unpaid calls) on none.
 */
export function createLimiter(setting: Exclude<LoadRateLimitSetting, "ignore">, now = () => Date.now()): Limiter {
  const quotas = new Map<string, LimitPolicy>();
  const windows = new Map<string, Window>();
  const pausedUntil = new Map<string, number>();
  const routePolicy = new Map<string, string>();
  const inFlight = new Map<string, number>();
  if (setting !== "auto") {
    quotas.set(ACCOUNT, { policy: ACCOUNT, quota: setting.perAccount, windowSeconds: STATED_WINDOW_SECONDS });
    for (const [op, quota] of Object.entries(setting.perOperation))
      quotas.set(op, { policy: op, quota, windowSeconds: STATED_WINDOW_SECONDS });
  }
  const authenticated = (t: RequestTemplate) => Object.keys(t.headers).some((h) => h.toLowerCase() === "authorization");
  const policiesOf = (t: RequestTemplate): string[] => {
    if (!authenticated(t)) return [];
    const own =
      routePolicy.get(routeOf(t.path)) ?? (setting !== "auto" && quotas.has(t.operationId) ? t.operationId : null);
    return own && own !== ACCOUNT ? [ACCOUNT, own] : [ACCOUNT];
  };
  const window = (name: string, at: number): Window | null => {
    let w = windows.get(name);
    const q = quotas.get(name);
    if ((!w || at >= w.resetAt) && q) {
      w = { remaining: q.quota, resetAt: at + q.windowSeconds * 1000 };
      windows.set(name, w);
    }
    return w && at < w.resetAt ? w : null;
  };
  const flight = (name: string, d: number) => inFlight.set(name, Math.max(0, (inFlight.get(name) ?? 0) + d));

  return {
    admit(t, at = now()) {
      const names = policiesOf(t);
      for (const name of names) {
        if ((pausedUntil.get(name) ?? 0) > at) return false;
        const w = window(name, at);
        if (w && w.remaining <= 0) return false;
      }
      for (const name of names) {
        const w = window(name, at);
        if (w) w.remaining--;
        flight(name, 1);
      }
      return true;
    },
    answered(t, status, h, at = now()) {
      for (const name of policiesOf(t)) flight(name, -1);
      return this.learn(t.path, status, h, at);
    },
    learn(path, status, h, at = now()) {
      const policy: RateLimitPolicyState | null = parseRateLimitPolicy(h["ratelimit-policy"]);
      if (policy && setting === "auto")
        quotas.set(policy.policy, { policy: policy.policy, quota: policy.quota, windowSeconds: policy.windowSeconds });
      const state = parseRateLimit(h.ratelimit);
      if (state) {
        if (state.policy !== ACCOUNT) routePolicy.set(routeOf(path), state.policy);
        // the target's count, less what is still on the way to it; never more than this client counted itself
        const known = windows.get(state.policy);
        const remaining = state.remaining - (inFlight.get(state.policy) ?? 0);
        const resetAt = at + state.resetSeconds * 1000;
        const sameWindow = known && Math.abs(known.resetAt - resetAt) < 2000;
        windows.set(state.policy, {
          remaining: sameWindow ? Math.min(known.remaining, remaining) : remaining,
          resetAt,
        });
      }
      if (status !== 429) return { throttled: false };
      // a 429 that respects the advertised policy: it says when to come back, and which window is spent
      const throttled = h["retry-after"] !== undefined && (state !== null || policy !== null);
      const name = state?.policy ?? policy?.policy ?? ACCOUNT;
      pausedUntil.set(name, at + retryAfterSeconds(h["retry-after"], at) * 1000);
      return { throttled };
    },
    unanswered(t) {
      for (const name of policiesOf(t)) flight(name, -1);
    },
    policies: () => [...quotas.values()],
    accountRate() {
      const q = quotas.get(ACCOUNT);
      return q ? q.quota / q.windowSeconds : null;
    },
  };
}

/** The share of the account's allowed rate a paced run schedules: the rest is room for the tool's own reads. */
export const PACE_SHARE = 0.9;

/**
 * The answers a percentile needs to be judged at a paced rate: at least 5 expected above it (n·(1 − q) ≥ 5, the
 * usual rule for reading a proportion off a sample), so no one stalled answer decides it. p(95) needs 100, p(99)
 * 500: a run paced at 3 requests/s for 40 s judges the overall p(95) and no operation's p(99).
 */
export const samplesFor = (p: number) => Math.ceil((5 * 100) / (100 - p) - 1e-9);
