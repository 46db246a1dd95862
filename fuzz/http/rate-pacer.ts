// How the fuzzer keeps to a target's rate limits (issue 17, "Fuzzing honours 429 everywhere"): a fixed pace
// (`--rate R` requests per second, for a limit the target does not advertise), or, by default, the pace the target
// advertises: after each answer, the IETF `RateLimit` header (`"default";r=199;t=8`: 199 requests left in the 8 s
// before the window resets) spreads what is left of that policy's window evenly over the time left, per policy,
// so a 200-per-minute account and a 10-per-minute /screenshot are both kept to without bursts and 429s.

export type RateOption = number | "auto";

export interface RateLimitState {
  policy: string;
  remaining: number;
  resetSeconds: number;
}

/** `"default";r=199;t=8` (the IETF draft's structured field), or null when absent or unreadable. */
export function parseRateLimit(header: string | string[] | undefined): RateLimitState | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const m = /^\s*"?([^";,]+)"?\s*;(.*)$/.exec(value.split(",")[0]);
  if (!m) return null;
  const params = Object.fromEntries(m[2].split(";").map((p) => p.trim().split("=") as [string, string])) as Record<
    string,
    string | undefined
  >;
  const remaining = Number(params.r);
  const resetSeconds = Number(params.t);
  if (!Number.isFinite(remaining) || !Number.isFinite(resetSeconds)) return null;
  return { policy: m[1], remaining, resetSeconds };
}

export interface Pacer {
  /** Waits for the path's turn; resolves at once when nothing limits it, or when waiting would pass the deadline. */
  before(path: string): Promise<void>;
  /** Learns the pace from an answer's headers. */
  after(path: string, headers: Record<string, string | string[] | undefined>): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** the path without its query and without ids: /deepcrawl/status/abc and /deepcrawl/status/def share a policy */
const routeOf = (path: string) => path.split("?")[0].replace(/\/status\/.*$/, "/status/*");

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
