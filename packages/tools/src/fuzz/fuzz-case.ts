// One fuzz case: a target-independent request and what the contract expects of it. Valid cases expect the
// documented success (or 402 once the balance runs out); invalid ones carry their single labelled violation.
// Valid cases made from a fixture site (--fixture-url) also keep what each URL they name answered the fuzzer.
import type { Violation } from "./arbitraries/violation-slots.ts";
import type { Fetched } from "./checks/fetch-outcome.ts";
import type { FuzzRequest } from "./http/http-client.ts";

export interface FuzzCase {
  operationId: string;
  request: FuzzRequest;
  /** null for valid input */
  violation: Violation | null;
  /** fixture-site URLs of the body with the status each answered the fuzzer (0: none); absent elsewhere */
  fetched?: Fetched;
}

export type { FuzzRequest, Violation };
