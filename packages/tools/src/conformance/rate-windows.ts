// Pacing below a target's rate limits (D-rate-limits; issue 17): the suite knows each window it draws on, the
// account's ("default") and an operation's own (/screenshot), and waits for a window to refill before a request
// it would exhaust, instead of drawing a 429 and sleeping out Retry-After. `auto` learns the windows from the
// IETF RateLimit / RateLimit-Policy headers the target sends; a stated limit (--rate-limit N[,screenshot=M])
// serves a target that advertises none.

import { parseRateLimitOption, type StatedRateLimits } from "@plumbline-kit/contract/rate-limit-headers";

export interface StatedLimits extends StatedRateLimits {
  windowSeconds: number;
}

export type RateLimitSetting = "auto" | StatedLimits;

/** `auto`, `N` or `N,screenshot=M,...` (one window of 60 s, D-rate-limits). */
export function parseRateLimit(text: string): RateLimitSetting {
  const setting = parseRateLimitOption(text);
  return setting === "auto" ? setting : { ...setting, windowSeconds: 60 };
}

interface Window {
  remaining: number;
  resetAt: number;
}

export interface RateWindows {
  /** milliseconds to wait before a request of `operationId` may go (0: now); reserves its place in the windows */
  reserve(operationId: string | null, now: number): { waitMs: number; window?: string };
  /** what an answer told about its window (`RateLimit: "name";r=R;t=T`) */
  observe(headers: Record<string, string>, now: number): void;
}

export function createRateWindows(setting: RateLimitSetting): RateWindows {
  const windows = new Map<string, Window>();
  const stated = setting === "auto" ? null : setting;
  const limitOf = (name: string) =>
    stated ? (name === "default" ? stated.perAccount : stated.perOperation[name]) : undefined;
  return {
    reserve(operationId, now) {
      const names = ["default", ...(operationId ? [operationId] : [])];
      let waitMs = 0;
      let which: string | undefined;
      for (const name of names) {
        let w = windows.get(name);
        const limit = limitOf(name);
        if (!w || now >= w.resetAt) {
          if (limit === undefined) {
            if (w) windows.delete(name);
            continue;
          }
          w = { remaining: limit, resetAt: now + (stated as StatedLimits).windowSeconds * 1000 };
          windows.set(name, w);
        }
        if (w.remaining <= 0 && w.resetAt - now > waitMs) {
          waitMs = w.resetAt - now;
          which = name;
        }
      }
      for (const name of names) {
        const w = windows.get(name);
        if (!w) continue;
        if (waitMs > 0 && now + waitMs >= w.resetAt) {
          const limit = limitOf(name);
          if (limit !== undefined) windows.set(name, { remaining: limit - 1, resetAt: now + waitMs + 60_000 });
          else windows.delete(name);
        } else w.remaining--;
      }
      return { waitMs, window: which };
    },
    observe(headers, now) {
      if (stated) return;
      const m = /"([^"]+)"\s*;\s*r=(\d+)\s*;\s*t=(\d+)/.exec(headers.ratelimit ?? "");
      if (!m) return;
      windows.set(m[1], { remaining: Number(m[2]), resetAt: now + Number(m[3]) * 1000 });
    },
  };
}
