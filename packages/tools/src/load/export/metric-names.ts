// The names of the metrics an exported script records, shared by the runtime that records them (runtime/) and the
// checks that read them (export-checks.ts, the account step). Artillery: counters and histograms named
// `plumbline.<key>.<what>`; no name is a substring of another, since `ensure` finds metric names in an expression
// by substring. k6: a few metrics, the key as the `op` tag and the warm-up as `window:warmup`.

/** Artillery's name prefix for a threshold key: "overall", an operationId, "flow:deepcrawl". */
export const artilleryBase = (key: string) => `plumbline.${key.replace(/^flow:/, "flow_")}`;

/** Counters per request key (answers, never-answered sends, unexpected statuses, 429s within policy, held back). */
export const REQUEST_COUNTERS = ["answered", "failed", "unexpected", "throttled", "held_back"] as const;
/** Per request key: the latency of every answer that is not a 429 within the target's policy, in ms. */
export const RESPONSE_TIME = "response_time";
/** Per flow: counters, and the time from submit to the poll that saw `completed`, in ms. */
export const FLOW_COUNTERS = ["started", "completed", "failed"] as const;
export const FLOW_TIME = "time_to_completed";
/** The zip of a completed deepcrawl, fetched at its zipUrl (its download time, in ms). */
export const ZIP_TIME = "plumbline.flow_deepcrawl.zip_download";

/** What the run spent, for `plumbline load account`: the same in both engines but for the separator. */
export const CREDIT_COUNTERS = {
  /** credits of the successful calls, priced from the spec (setup steps and warm-up included) */
  counted: "credits.counted",
  /** paid requests sent that never got an answer: they may or may not have been charged */
  unansweredRequests: "credits.unanswered_requests",
  /** the most those could have cost */
  unansweredMax: "credits.unanswered_max",
} as const;

export const artilleryCredit = (name: string) => `plumbline.${name}`;
export const k6Credit = (name: string) => `plumbline_${name.replace(/\./g, "_")}`;

/** k6 metrics (tags: op = the threshold key's operation, window = measured | warmup). */
export const K6 = {
  latency: "plumbline_latency",
  errors: "plumbline_errors",
  answers: "plumbline_answers",
  throttled: "plumbline_throttled",
  heldBack: "plumbline_held_back",
  flowTime: "plumbline_flow_time_to_completed",
  flowErrors: "plumbline_flow_errors",
  flowCompleted: "plumbline_flow_completed",
  zipTime: "plumbline_zip_download",
} as const;
