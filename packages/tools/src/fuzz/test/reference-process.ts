// The reference the fuzz tests fuzz, started through test-support/reference-process.ts on a throw-away SQLite
// directory. The client folder never imports the reference: it is a child process, as in CI.
import {
  type ReferenceProcess,
  startReferenceProcess as start,
} from "../../../../../test-support/reference-process.ts";

export type { ReferenceProcess } from "../../../../../test-support/reference-process.ts";

/** One funded key, no rate limit (a real limit would only make the run wait on 429s). */
export const REFERENCE_KEY = "fuzz-ref-key";
/** the reference's test payment key: the model pays for calls too (issue 16) */
export const REFERENCE_PAYMENT_KEY = "fuzz-ref-payment-key";

export function startReferenceProcess(): Promise<ReferenceProcess> {
  return start({
    keys: [`${REFERENCE_KEY}:1000000000`],
    args: ["--rate-limit", "0", "--payment-test-key", REFERENCE_PAYMENT_KEY],
  });
}
