// Sign-in attempts are rate-limited (issue 15 "Account pages"): per client address and per username, in fixed
// windows of the platform's rate-limit store (in the database, so every instance counts together). Both a
// password-guessing run against one user and a spray across users from one address are slowed down.
import type { RateLimitStore } from "@plumbline-kit/platform/stores";

export interface LoginThrottle {
  /** null when the attempt may go on, else the seconds to wait */
  attempt(address: string, login: string): Promise<number | null>;
}

export interface LoginThrottleOptions {
  /** attempts per username in a window (default 10) */
  perUser?: number;
  /** attempts per client address in a window (default 50) */
  perAddress?: number;
  /** the fixed window (default 15 minutes) */
  windowMs?: number;
  /** the clock the windows are counted on (default Date.now; tests drive one) */
  now?: () => number;
}

export function createLoginThrottle(store: RateLimitStore, o: LoginThrottleOptions = {}): LoginThrottle {
  const windowMs = o.windowMs ?? 15 * 60_000;
  const now = o.now ?? Date.now;
  return {
    async attempt(address, login) {
      const t = now();
      const byAddress = await store.hit(`login-address:${address}`, windowMs, t);
      const byUser = await store.hit(`login-user:${login.toLowerCase()}`, windowMs, t);
      if (byAddress.count > (o.perAddress ?? 50) || byUser.count > (o.perUser ?? 10))
        return Math.max(1, Math.ceil((Math.max(byAddress.resetAtMs, byUser.resetAtMs) - t) / 1000));
      return null;
    },
  };
}
