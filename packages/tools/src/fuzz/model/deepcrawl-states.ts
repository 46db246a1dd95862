// The deepcrawl task lifecycle as the model knows it (D-deepcrawl-states): the states in the order the document's
// status enum lists them (queued → waiting → processing → completed, or failed), read from the spec, never
// re-typed. With the mock's manual clock and step durations the state at any instant is exact; on any other
// target the model only knows that states move forward and that an end state is final.
import type { Contract, JsonSchema } from "@plumbline-kit/contract";

export type TaskState = string;

export interface Steps {
  queuedMs: number;
  waitingMs: number;
  processingMs: number;
}

/** The two end states D-deepcrawl-states names. */
export const ENDS = ["completed", "failed"] as const;
export type EndState = (typeof ENDS)[number];

export interface Lifecycle {
  /** every state a task can report, in lifecycle order (the unknown-id value `not_found` left out) */
  states: TaskState[];
  isState(v: unknown): v is TaskState;
  isEnd(s: TaskState): s is EndState;
  /** order along the lifecycle; both end states rank last */
  rank(s: TaskState): number;
  /** the state after `elapsed` ms (mock/README.md: each step lasts its duration; `elapsed < step` is inside) */
  stateAt(elapsed: number, steps: Steps): TaskState | "ended";
}

const cache = new WeakMap<Contract, Lifecycle>();

export function lifecycleOf(contract: Contract): Lifecycle {
  const known = cache.get(contract);
  if (known) return known;
  const schema = contract.operation("deepcrawlStatus").responses.get(200)?.content["application/json"] as JsonSchema;
  const listed = (schema?.properties?.status?.enum ?? []).filter((s): s is string => typeof s === "string");
  const states = listed.filter((s) => s !== "not_found");
  const isEnd = (s: TaskState): s is EndState => (ENDS as readonly string[]).includes(s);
  const firstEnd = states.findIndex(isEnd);
  const running = states.slice(0, firstEnd);
  const lc: Lifecycle = {
    states,
    isState: (v): v is TaskState => typeof v === "string" && states.includes(v),
    isEnd,
    rank: (s) => (isEnd(s) ? firstEnd : states.indexOf(s)),
    stateAt(elapsed, steps) {
      const durations = [steps.queuedMs, steps.waitingMs, steps.processingMs];
      let until = 0;
      for (const [i, state] of running.entries()) {
        until += durations[i] ?? 0;
        if (elapsed < until) return state;
      }
      return "ended";
    },
  };
  cache.set(contract, lc);
  return lc;
}
