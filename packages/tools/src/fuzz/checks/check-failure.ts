// The checks the fuzzer runs, by id (style: "checks are a registry of small named functions"; Schemathesis), and
// the failure value each returns. A property throws only at the fast-check boundary (PropertyFailure).

export const CHECKS = {
  "no-hang": "every request is answered within the per-request timeout",
  "no-dropped-connection": "no connection is reset or closed before the answer",
  "no-server-error": "no 5xx, for the call or a batch entry",
  "status-conformance": "valid input gets the documented success status, or 402 once the balance runs out",
  "response-schema": "the answer validates against the spec (status listed, content type, body)",
  "response-headers": "the answer's headers validate against the spec",
  "batch-summary": "a batch summary counts its entries and costs (interface-spec Batch response; D-charging)",
  "parameter-echo": "every request field is echoed with the same value (D-echo)",
  "charge-exact": "a valid call costs its price, batch entries one by one (D-charging)",
  "contract-rule":
    "the answer meets the contract registry's other rules (spec/checks: the 402 problem, max_results, error bodies, screenshots, crawl text, extract formats, sitemap hosts, …); the failure names the rule",
  "negative-rejected": "invalid input is refused with 400 or 422 as labelled (D-validation-status)",
  "error-names-field": "a 422 lists the violated field and keyword in errors[] (D-error-codes)",
  "rejected-not-charged": "a refused call leaves the balance unchanged (D-charging)",
  "model-balance": "the balance equals the model's after every command",
  "model-payment":
    "a paid call gets its 402 challenge at the request's price, answers with a Payment-Receipt, refuses a replay",
  "model-task-state": "every deepcrawl task is where the model says (D-deepcrawl-states)",
  "health-after-run": "GET /health answers 200 after the run",
} as const;

export type CheckId = keyof typeof CHECKS;

export interface CheckFailure {
  check: CheckId;
  message: string;
  /** the contract registry's rule (spec/checks) behind it, when the registry judged it */
  rule?: string;
}

export function fail(check: CheckId, message: string, rule?: string): CheckFailure {
  return rule === undefined ? { check, message } : { check, message, rule };
}

/** Thrown inside a fast-check predicate so the runner records and shrinks the case. */
export class PropertyFailure extends Error {
  readonly failures: CheckFailure[];
  constructor(failures: CheckFailure[]) {
    super(failures.map((f) => `[${f.check}] ${f.message}`).join("; "));
    this.failures = failures;
    this.name = "PropertyFailure";
  }
}
