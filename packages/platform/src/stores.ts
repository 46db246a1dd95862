// The store and clock interfaces the platform runs over. The reference plugs in SQL stores and the real clock;
// the mock plugs in in-memory stores and a virtual clock. Billing and auth are written once, over these.

export interface Account {
  id: string;
  userId: string | null;
  credentialType: "api_key" | "oauth";
  clientId: string | null;
}

/** Credits reserved for one call (or one batch entry) until it completes or fails. */
export interface Hold {
  accountId: string;
  credits: number;
  operationId: string;
  requestId: string;
  /** the store's name for it (a durable store's row; issue 38); the mock's in-memory store gives none */
  id?: string;
}

/**
 * The stores the platform runs over. `authenticate`, `hold` and `settle`, which every paid call makes, may answer at
 * once instead of with a promise (the mock's in-memory store does): the platform then takes no turn of the microtask
 * queue for them (issue 25: three hops and three async frames less per mock POST /search, ~1 KB less allocated,
 * 15.1-15.3 -> 14.1-14.2 KB (sampling heap profile), and ~1,300 fewer instructions (callgrind, two runs each)). A SQL
 * store answers with promises, as before.
 */
export interface AccountStore {
  /** The account a presented credential belongs to; null when unknown or revoked. */
  authenticate(credential: string): Promise<Account | null> | Account | null;
  balance(accountId: string): Promise<number>;
  /** Reserves credits atomically; null when the balance cannot cover them. Never overdraws (D-charging). */
  hold(
    accountId: string,
    credits: number,
    meta: { operationId: string; requestId: string },
  ): Promise<Hold | null> | Hold | null;
  /**
   * The call completed: the hold becomes a ledger entry ("charging happens on completion", D-charging). Settling or
   * releasing a hold again changes nothing. A durable store rejects when the hold is no longer open because it was
   * released for a dead instance (this process was taken for dead): the call must not answer as charged.
   */
  settle(hold: Hold): Promise<void> | undefined;
  /** The call failed: the reserved credits return to the balance (once, however often it is called). */
  release(hold: Hold): Promise<void>;
  /**
   * Work charged on acceptance failed later (a deepcrawl task, D-charging): gives back what the ledger charged the
   * account for `requestId`, as a ledger row of operation "refund" with negative credits and the same request id.
   * Idempotent: 0 when nothing was charged for it (a hold released, a Payment credential) or it was refunded already.
   */
  refund(accountId: string, requestId: string): Promise<number>;
}

/** True for a promise (or any thenable) a store answered with, false for an answer given at once. */
export function isPending<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

export interface RateLimitStore {
  /** Counts one request against `key` in the fixed window containing `nowMs`. */
  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const realClock: Clock = { now: () => Date.now() };

/**
 * A fixed-window counter in memory; enough for one process (the mock, a single reference instance). Windows that
 * have ended are dropped once the map has doubled since the last sweep, so it holds about the keys of the current
 * window (a long-running process with many accounts does not keep one window per key it ever saw).
 */
export function createMemoryRateLimitStore(): RateLimitStore & { clear(): void; size(): number } {
  const windows = new Map<string, { start: number; end: number; count: number }>();
  let sweepAbove = 1024;
  return {
    async hit(key, windowMs, nowMs) {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const w = windows.get(key);
      const current = w && w.start === start ? w : { start, end: start + windowMs, count: 0 };
      current.count += 1;
      if (current !== w) {
        windows.set(key, current);
        if (windows.size > sweepAbove) {
          for (const [k, v] of windows) if (v.end <= nowMs) windows.delete(k);
          sweepAbove = Math.max(1024, windows.size * 2);
        }
      }
      return { count: current.count, resetAtMs: current.end };
    },
    size: () => windows.size,
    clear() {
      windows.clear();
      sweepAbove = 1024;
    },
  };
}

/** One report kept by POST /feedback (D-feedback): the body as sent, `category` defaulted, and who sent it when. */
export interface FeedbackReport {
  id: string;
  accountId: string;
  requestId: string;
  /** ISO date-time on the platform's clock */
  receivedAt: string;
  message: string;
  intent?: string;
  category: "bug" | "feature_request" | "docs" | "other";
  request_id?: string;
  agent?: { name?: string; model?: string };
}

/** Where feedback reports are kept; `add` resolves only once the report is kept (the 201 waits for it). */
export interface FeedbackStore {
  add(report: FeedbackReport): Promise<void>;
  /** every kept report, oldest first (the operator's view: the mock's admin API) */
  list(): Promise<FeedbackReport[]>;
}

/** An in-memory store keeping the newest `max` reports (default 10,000): bounded whatever the traffic. */
export function createMemoryFeedbackStore(max = 10_000): FeedbackStore & { clear(): void; size(): number } {
  let reports: FeedbackReport[] = [];
  return {
    async add(report) {
      reports.push(report);
      if (reports.length > max) reports = reports.slice(reports.length - max);
    },
    async list() {
      return reports.map((r) => structuredClone(r));
    },
    clear() {
      reports = [];
    },
    size: () => reports.length,
  };
}
