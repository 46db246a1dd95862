// The proxy's rules: what it judges in each exchange it sees (or in a short sequence of them). Ids are stable: CI
// jobs, reports and docs/proxy.md name them. `side` says whose fault a violation is: the client's request or the
// answer of whoever served it.
export type Severity = "critical" | "major" | "minor";

export interface Rule {
  id: string;
  title: string;
  side: "request" | "response";
  severity: Severity;
  /** the interface section or decision (D-…) the rule enforces */
  basis: string;
}

export const RULES = [
  {
    id: "request-json",
    title: "A request to a JSON operation is JSON (Content-Type application/json, a body that parses)",
    side: "request",
    severity: "major",
    basis: "Errors; D-validation-status",
  },
  {
    id: "request-schema",
    title: "A request body is an object or a non-empty array that validates against the operation's schema",
    side: "request",
    severity: "major",
    basis: "Resources and their fields; D-validation-status",
  },
  {
    id: "request-parameters",
    title: "Query and path parameters validate against the operation's parameters",
    side: "request",
    severity: "major",
    basis: "Endpoints; D-validation-status",
  },
  {
    id: "response-status-listed",
    title: "Every answer's status is one its operation lists",
    side: "response",
    severity: "major",
    basis: "Endpoints; Errors",
  },
  {
    id: "response-content-type",
    title: "Every answer has a content type its operation declares for that status",
    side: "response",
    severity: "major",
    basis: "What the service does; Errors",
  },
  {
    id: "response-schema",
    title: "Every JSON answer parses and validates against the operation's schema for its status",
    side: "response",
    severity: "critical",
    basis: "Resources and their fields; Errors",
  },
  {
    id: "response-headers",
    title: "Every answer carries the headers its response declares, with values of their schemas",
    side: "response",
    severity: "major",
    basis: "D-headers",
  },
  {
    id: "auth-challenge",
    title: 'A 401 carries WWW-Authenticate: Bearer … resource_metadata="…" (RFC 9728)',
    side: "response",
    severity: "major",
    basis: "Authentication; D-auth",
  },
  {
    id: "payment-problem",
    title: "A 402 is the payment problem: problem+json with type, title, status 402, detail, and a Payment challenge",
    side: "response",
    severity: "major",
    basis: "What the service does 2-3; D-payment-challenge",
  },
  {
    id: "rate-limit-retry-after",
    title: "A 429 carries Retry-After in seconds",
    side: "response",
    severity: "major",
    basis: "Limits 4; D-rate-limits",
  },
  {
    id: "batch-entries",
    title: "A search or news batch answers one entry per request item, each success echoing its item's query",
    side: "response",
    severity: "critical",
    basis: "POST /search; POST /news; Batch response",
  },
  {
    id: "batch-summary",
    title: "A batch summary adds up: total, successful, failed and totalCost match the entries",
    side: "response",
    severity: "critical",
    basis: "Batch response",
  },
  {
    id: "batch-entry-cost",
    title: "A batch entry costs its price when it succeeds (surcharges included) and 0 when it fails",
    side: "response",
    severity: "critical",
    basis: "Batch response; D-charging; D-crawl-results-billing",
  },
  {
    id: "parameters-echo",
    title:
      "searchParameters echoes every request field; trendingParameters the request; crawlParameters.url and extractParameters.url the URL asked",
    side: "response",
    severity: "minor",
    basis: "Search response; Trending response; Crawl response; Extract response; D-echo",
  },
  {
    id: "deepcrawl-task-echo",
    title: "A deepcrawl status answer names the task polled",
    side: "response",
    severity: "major",
    basis: "GET /deepcrawl/status/{taskId}",
  },
  {
    id: "deepcrawl-terminal-stays",
    title: "A task seen completed or failed reports the same state on every later poll",
    side: "response",
    severity: "major",
    basis: "States and transitions; D-deepcrawl-states",
  },
  {
    id: "deepcrawl-states-forward",
    title: "A task's state only moves forward: queued → waiting → processing → completed or failed",
    side: "response",
    severity: "minor",
    basis: "States and transitions; D-deepcrawl-states",
  },
  {
    id: "request-id-echo",
    title: "Every answer carries x-request-id, echoing the one the client sent",
    side: "response",
    severity: "minor",
    basis: "Errors (request id); D-headers",
  },
  {
    id: "upstream-answers",
    title: "Every forwarded request gets an HTTP answer within the proxy's upstream timeout",
    side: "response",
    severity: "critical",
    basis: "What the service does 1",
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]["id"];

export const RULE_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));
