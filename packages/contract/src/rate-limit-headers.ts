// The client side of D-rate-limits, shared by the clients (fuzz/, load/): they may import only spec/, and what a
// rate-limited answer carries is the contract's (contract notes: "429 carries Retry-After and the IETF RateLimit /
// RateLimit-Policy headers"; the mock and the reference send them from `contract.rateLimits`). Here: reading those
// headers, and the pacer the fuzzer keeps to a target's limits with (issue 17, "Fuzzing honours 429 everywhere"),
// moved here from fuzz/http/ so the load tool reads the same headers the same way (issue 27).
//
// The pacer: a fixed pace (`--rate R` requests per second, for a limit the target does not advertise), or, by
// default, the pace the target advertises: after each answer, the IETF `RateLimit` header (`"default";r=199;t=8`:
// 199 requests left in the 8 s before the window resets) spreads what is left of that policy's window evenly over
// the time left, per policy, so a 200-per-minute account and a 10-per-minute /screenshot are both kept to without
// bursts and 429s.

export type RateOption = number | "auto";

/** `RateLimit`: what is left of a policy's current window. */
export interface RateLimitState {
  policy: string;
  remaining: number;
  resetSeconds: number;
}

/** `RateLimit-Policy`: a policy's quota per window. */
export interface RateLimitPolicyState {
  policy: string;
  quota: number;
  windowSeconds: number;
}

type Header = string | string[] | undefined;

/** Limits a user states for a target that advertises none: requests per window, the account's and operations' own. */
export interface StatedRateLimits {
  perAccount: number;
  /** operationId → requests per window, for operations with a window of their own */
  perOperation: Record<string, number>;
}

/**
 * The clients' `--rate-limit` value: `auto` (read the target's headers) or `N[,operation=M]` (requests per window
 * of D-rate-limits' 60 s). Throws an error naming the option and the bad part.
 */
export function parseRateLimitOption(text: string): "auto" | StatedRateLimits {
  if (text === "auto") return "auto";
  const [head, ...rest] = text.split(",").map((s) => s.trim());
  if (!/^\d+$/.test(head) || Number(head) < 1)
    throw new Error(`--rate-limit takes auto or N[,operation=M], not "${text}"`);
  const perOperation: Record<string, number> = {};
  for (const part of rest) {
    const m = /^([A-Za-z][\w-]*)=(\d+)$/.exec(part);
    if (!m || Number(m[2]) < 1) throw new Error(`--rate-limit: "${part}" is not operation=N`);
    perOperation[m[1]] = Number(m[2]);
  }
  return { perAccount: Number(head), perOperation };
}

/** The first item of a structured field: its name and parameters (`"default";r=199;t=8` → default, {r, t}). */
function firstItem(header: Header): { name: string; params: Record<string, string | undefined> } | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const m = /^\s*"?([^";,]+)"?\s*;(.*)$/.exec(value.split(",")[0]);
  if (!m) return null;
  const params = Object.fromEntries(m[2].split(";").map((p) => p.trim().split("=") as [string, string])) as Record<
    string,
    string | undefined
  >;
  return { name: m[1], params };
}

/** `"default";r=199;t=8` (the IETF draft's structured field), or null when absent or unreadable. */
export function parseRateLimit(header: Header): RateLimitState | null {
  const item = firstItem(header);
  if (!item) return null;
  const remaining = Number(item.params.r);
  const resetSeconds = Number(item.params.t);
  if (!Number.isFinite(remaining) || !Number.isFinite(resetSeconds)) return null;
  return { policy: item.name, remaining, resetSeconds };
}

/** `"default";q=200;w=60`, or null when absent or unreadable. */
export function parseRateLimitPolicy(header: Header): RateLimitPolicyState | null {
  const item = firstItem(header);
  if (!item) return null;
  const quota = Number(item.params.q);
  const windowSeconds = Number(item.params.w);
  if (!(quota > 0) || !(windowSeconds > 0)) return null;
  return { policy: item.name, quota, windowSeconds };
}

const MAX_RETRY_AFTER_S = 65;

/** Retry-After in seconds (delta-seconds or an HTTP date), clamped to 1..65; 5 when absent or unreadable. */
export function retryAfterSeconds(header: Header, nowMs = Date.now()): number {
  const v = Array.isArray(header) ? header[0] : header;
  let s = Number(v);
  if (v !== undefined && !Number.isFinite(s)) s = (Date.parse(v) - nowMs) / 1000;
  if (!Number.isFinite(s)) s = 5;
  return Math.min(Math.max(Math.ceil(s), 1), MAX_RETRY_AFTER_S);
}

export interface Pacer {
  /** Waits for the path's turn; resolves at once when nothing limits it, or when waiting would pass the deadline. */
  before(path: string): Promise<void>;
  /** Learns the pace from an answer's headers. */
  after(path: string, headers: Record<string, string | string[] | undefined>): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** the path without its query and without ids: /deepcrawl/status/abc and /deepcrawl/status/def share a policy */
export const routeOf = (path: string) => path.split("?")[0].replace(/\/status\/.*$/, "/status/*");

export function createPacer(rate: RateOption, deadline: () => number | null, now = () => Date.now()): Pacer {
  const fixedGapMs = typeof rate === "number" && rate > 0 ? 1000 / rate : 0;
  let nextFixed = 0;
  const policyOf = new Map<string, string>();
  const nextAt = new Map<string, number>();

  async function waitUntil(at: number): Promise<void> {
    const end = deadline();
    const t = now();
    if (at <= t || (end !== null && at > end)) return;
    await sleep(at - t);
  }

  return {
    async before(path) {
      if (fixedGapMs > 0) {
        const at = Math.max(now(), nextFixed);
        nextFixed = at + fixedGapMs;
        await waitUntil(at);
      }
      if (rate !== "auto") return;
      const policy = policyOf.get(routeOf(path));
      const at = policy === undefined ? undefined : nextAt.get(policy);
      if (at === undefined) return;
      await waitUntil(at);
    },
    after(path, headers) {
      if (rate !== "auto") return;
      const state = parseRateLimit(headers.ratelimit);
      if (!state) return;
      policyOf.set(routeOf(path), state.policy);
      // what is left of the window, spread evenly over the time left (the reset itself when nothing is left)
      const gapMs = (state.resetSeconds * 1000) / Math.max(state.remaining, 1);
      const at = now() + (state.remaining > 0 ? gapMs : state.resetSeconds * 1000);
      nextAt.set(state.policy, Math.max(nextAt.get(state.policy) ?? 0, at));
    },
  };
}
