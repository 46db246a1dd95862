// What a valid call must get when it names a fixture-site URL whose answer the fuzzer knows (--fixture-url), on a
// target that really fetches (one that does not advertise the mock's admin API): a page that exists must give
// the documented success; a 404 or 410 passes through, charged, on an operation that lists that status (crawl;
// D-charging "a crawl answered 404 or 410 is charged"); anything else that is not a page, an unreachable host
// included, is an upstream failure, 502, free (D-charging). A batch entry that fails costs 0 (D-charging).
import type { OperationSpec } from "@plumbline-kit/contract";

/** URL → the status the fixture site answered the fuzzer with (0: no answer). Stored with the case. */
export type Fetched = Record<string, number>;

export type EntryOutcome =
  | { kind: "success" }
  | {
      kind: "failure";
      /** the status the call (single form) must answer */
      status: number;
      /** whether that answer costs the price (single form; a failed batch entry always costs 0) */
      charged: boolean;
      /** why, for the failure message */
      why: string;
    };

/** The target statuses a call may pass through, charged (D-charging), when the operation lists them. */
const PASSED_THROUGH = [404, 410];
const SUCCESS: EntryOutcome = { kind: "success" };

/** An operation that passes a target's 404 and 410 through: its URLs may name pages that fail. */
export function passesTargetStatus(op: OperationSpec): boolean {
  return PASSED_THROUGH.every((s) => op.statuses.includes(s));
}

export function fetchOutcome(op: OperationSpec, url: string, status: number): EntryOutcome {
  if (status >= 200 && status < 300) return SUCCESS;
  const answered = status === 0 ? `${url} did not answer the fuzzer` : `${url} answered the fuzzer ${status}`;
  if (PASSED_THROUGH.includes(status) && op.statuses.includes(status)) {
    return { kind: "failure", status, charged: true, why: `${answered}; passed through, charged (D-charging)` };
  }
  return { kind: "failure", status: 502, charged: false, why: `${answered}; an upstream failure, free (D-charging)` };
}

/** The outcome of one body entry: the first URL it names that is not a page decides. */
export function entryOutcome(op: OperationSpec, entry: unknown, fetched: Fetched | undefined): EntryOutcome {
  if (!fetched) return SUCCESS;
  let out = SUCCESS;
  const walk = (v: unknown): void => {
    if (out !== SUCCESS) return;
    if (typeof v === "string" && fetched[v] !== undefined) out = fetchOutcome(op, v, fetched[v]);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(entry);
  return out;
}
