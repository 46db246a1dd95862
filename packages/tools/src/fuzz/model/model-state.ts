// The model of one account (issue 6 "Stateful model-based testing"): its balance and its deepcrawl tasks, with the
// time the model believes has passed on the target's manual clock. `Real` is how commands reach the target.
import type { Contract } from "@plumbline-kit/contract";
import type { Waiver } from "../checks/waivers.ts";
import type { HttpClient } from "../http/http-client.ts";
import type { EndState, Steps, TaskState } from "./deepcrawl-states.ts";

export interface TaskModel {
  taskId: string;
  /** model time (ms since the run began) at which the task was started */
  startedAt: number;
  /** the state last observed: states only move forward */
  last: TaskState;
  /** the end state once observed: it never changes again */
  ended: EndState | null;
}

export interface Model {
  balance: number;
  tasks: TaskModel[];
  /** ms the manual clock has been moved since the run began */
  now: number;
  /** manual clock and known step durations: states are predicted exactly */
  exact: Steps | null;
  /** the target advertises /__mock: clock commands are available */
  clock: boolean;
  /** a test payment key was given: paying commands are available */
  paying: boolean;
}

export interface Real {
  contract: Contract;
  client: HttpClient;
  key: string;
  /** the target really fetches URLs: fixture outcomes stored with a call hold */
  fetches: boolean;
  /** the commands run so far, for the report and the corpus */
  log: unknown[];
  /** known issues of the target a call may show without failing the run */
  waivers: readonly Waiver[];
  /** calls covered by a waiver, by waiver id */
  waived: Record<string, number>;
  /** the target's test payment key: paying commands run (D-payment-methods) */
  paymentKey?: string;
}
