// The mock's clock: real time, or a manual clock that moves only when a test advances it, so deepcrawl
// states, rate-limit windows and timestamps can be stepped through deterministically.
import type { Clock } from "@plumbline-kit/platform/stores";

export type ClockMode = "real" | "manual";

export interface VirtualClock extends Clock {
  mode: ClockMode;
  /** Moves a manual clock forward; on a real clock it adds a permanent offset. */
  advance(ms: number): number;
  /** Sets a manual clock (epoch ms). */
  set(ms: number): number;
}

export function createVirtualClock(mode: ClockMode, startMs: number = Date.now()): VirtualClock {
  let manual = startMs;
  let offset = 0;
  return {
    mode,
    now: () => (mode === "manual" ? manual : Date.now() + offset),
    advance(ms) {
      if (mode === "manual") manual += ms;
      else offset += ms;
      return this.now();
    },
    set(ms) {
      if (mode === "manual") manual = ms;
      else offset = ms - Date.now();
      return this.now();
    },
  };
}
