// Politeness between requests to one host (issue 11 "a per-host delay"): each host gets its next turn `delayMs`
// after the previous one was handed out, whichever task or page asks. Shared by all the tasks of one worker.
export interface HostPacer {
  /** Resolves when a request to `host` may start; rejects if `signal` aborts first. */
  turn(host: string, delayMs: number, signal?: AbortSignal): Promise<void>;
}

export function createHostPacer(now: () => number = Date.now): HostPacer {
  const next = new Map<string, number>();
  return {
    turn(host, delayMs, signal) {
      const t = now();
      const at = Math.max(t, next.get(host) ?? 0);
      next.set(host, at + delayMs);
      // forget hosts whose turn has long passed, so the map stays small on a long-running server
      if (next.size > 1000) for (const [h, n] of next) if (n < t) next.delete(h);
      const wait = at - t;
      if (wait <= 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
  };
}
