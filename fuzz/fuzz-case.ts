// One fuzz case: a target-independent request and what the contract expects of it. Valid cases expect the
// documented success (or 402 once the balance runs out); invalid ones carry their single labelled violation.
import type { Violation } from "./arbitraries/violation-slots.ts";
import type { FuzzRequest } from "./http/http-client.ts";

export interface FuzzCase {
  operationId: string;
  request: FuzzRequest;
  /** null for valid input */
  violation: Violation | null;
}

export type { FuzzRequest, Violation };
