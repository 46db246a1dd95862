// The one error catalogue (style: fastify lib/errors.js). Every error any plumbline server answers is listed here
// with a stable machine code, its HTTP status and a default message; D-error-body fixes the body around it.
// spec/DECISIONS.md is rendered from this table too, and a test checks the two agree.

/** Status labels, as the interface's status table names them (interface-spec "Errors"). */
export const STATUS_LABELS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Validation Error",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * The largest request body a plumbline server reads (D-validation-status): a larger one is refused 400
 * PLB_BODY_TOO_LARGE before validation, whatever else it breaks, and the judges accept that answer for it.
 */
export const REQUEST_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The largest POST /feedback body read (the live contract, D-feedback): a larger one is refused 413
 * PLB_PAYLOAD_TOO_LARGE before it is parsed. Its fields' bounds admit bodies past it (escaped control characters
 * take six bytes each), so the judges accept that answer for such a body.
 */
export const FEEDBACK_BODY_LIMIT_BYTES = 16 * 1024;

export interface CatalogueEntry {
  status: keyof typeof STATUS_LABELS & number;
  message: string;
  /** when it is answered */
  when: string;
}

export const ERROR_CATALOGUE = {
  PLB_MALFORMED_JSON: {
    status: 400,
    message: "The request body is not valid JSON",
    when: "the body does not parse as JSON",
  },
  PLB_UNSUPPORTED_MEDIA_TYPE: {
    status: 400,
    message: "The request body must be JSON (Content-Type: application/json)",
    when: "a POST whose Content-Type is not JSON",
  },
  PLB_BODY_SHAPE: {
    status: 400,
    message: "The request body must be a JSON object or a non-empty array",
    when: "a missing body, a string, number, boolean or null body, or an empty array",
  },
  PLB_BODY_TOO_LARGE: {
    status: 400,
    message: "The request body is too large",
    when: "a body over the server's size cap (1 MiB, REQUEST_BODY_LIMIT_BYTES)",
  },
  PLB_HEADERS_TOO_LARGE: {
    status: 400,
    message: "The request line and headers are too large",
    when: "the request line and headers pass the server's limit, before any route is matched (D-framework-errors)",
  },
  PLB_REQUEST_TIMEOUT: {
    status: 400,
    message: "The request did not arrive in time",
    when: "the headers or the body stalled past the server's request timeout (D-framework-errors)",
  },
  PLB_BODY_INCOMPLETE: {
    status: 400,
    message: "The request body ended early",
    when: "the body stopped before its end: the client aborted it mid-way (D-framework-errors)",
  },
  PLB_MALFORMED_REQUEST: {
    status: 400,
    message: "The request is not valid HTTP",
    when: "the HTTP parser refused the request (a bad request line, header or chunked encoding; D-framework-errors)",
  },
  PLB_BAD_PARAMETER: {
    status: 400,
    message: "A request parameter is not valid",
    when: "a query or path parameter violates its schema on an operation that lists no 422 (D-validation-status)",
  },
  PLB_BAD_VALUE: {
    status: 400,
    message: "A value is not accepted",
    when: "a value valid for the schema but refused outside it, e.g. an unknown trending platform",
  },
  PLB_MISSING_CREDENTIAL: {
    status: 401,
    message: "This operation needs a bearer credential",
    when: "no credential on an operation that is not paid (/usage)",
  },
  PLB_INVALID_TOKEN: {
    status: 401,
    message: "The bearer credential is not valid",
    when: "a malformed, unknown or revoked credential",
  },
  PLB_PAYMENT_REQUIRED: {
    status: 402,
    message: "Payment is required for this operation",
    when: "an anonymous call to a paid operation (the MPP challenge)",
  },
  PLB_INSUFFICIENT_CREDITS: {
    status: 402,
    message: "The credit balance cannot cover this call",
    when: "a key holder whose balance is below the call's price",
  },
  PLB_PAYMENT_INVALID: {
    status: 402,
    message: "The payment credential was refused",
    when: "a Payment credential that is malformed, was not issued here, is for another operation or fails its method's verification",
  },
  PLB_PAYMENT_EXPIRED: {
    status: 402,
    message: "The payment challenge has expired",
    when: "a Payment credential whose challenge is past its expiry",
  },
  PLB_PAYMENT_REPLAYED: {
    status: 402,
    message: "This payment credential was already used",
    when: "a Payment credential presented a second time (credentials are single use)",
  },
  PLB_PAYMENT_AMOUNT: {
    status: 402,
    message: "The payment credential is for another amount",
    when: "a Payment credential whose amount is not this call's price (batches are priced per entry)",
  },
  PLB_TARGET_FORBIDDEN: {
    status: 403,
    message: "The target URL is not allowed",
    when: "the target failed URL-safety or DNS checks",
  },
  PLB_REQUEST_FORBIDDEN: {
    status: 403,
    message: "Requests from this origin or for this host name are not served",
    when: "the mock: a Host header naming a host it does not serve (DNS rebinding), or its admin API called from a page of another origin",
  },
  PLB_ROUTE_NOT_FOUND: {
    status: 404,
    message: "No such route",
    when: "a method and path the contract does not define",
  },
  PLB_TASK_NOT_FOUND: { status: 404, message: "No deepcrawl task with this id", when: "an unknown deepcrawl task id" },
  PLB_TARGET_NOT_FOUND: {
    status: 404,
    message: "The target answered 404 Not Found",
    when: "the crawl target answered 404",
  },
  PLB_TARGET_GONE: { status: 410, message: "The target answered 410 Gone", when: "the crawl target answered 410" },
  PLB_PAYLOAD_TOO_LARGE: {
    status: 413,
    message: "The request body is over the operation's size cap",
    when: "a /feedback body over 16 KiB, in the live version (D-feedback)",
  },
  PLB_MEDIA_TYPE_REFUSED: {
    status: 415,
    message: "The request body must be JSON (Content-Type: application/json)",
    when: "a /feedback body whose Content-Type is not JSON, in the live version (D-feedback)",
  },
  PLB_VALIDATION_FAILED: {
    status: 422,
    message: "The request failed validation",
    when: "any schema violation; errors[] lists every violated field",
  },
  PLB_RATE_LIMITED: { status: 429, message: "Rate limit reached", when: "the account's request window is full" },
  PLB_INTERNAL: { status: 500, message: "Unexpected error", when: "a bug or an unexpected failure" },
  PLB_UPSTREAM_FAILED: {
    status: 502,
    message: "The upstream failed",
    when: "a target or engine failed or did not answer",
  },
  PLB_SERVICE_UNAVAILABLE: {
    status: 503,
    message: "The service is temporarily unavailable",
    when: "no renderer is free",
  },
  PLB_TARGET_TIMEOUT: {
    status: 504,
    message: "The page was not ready in time",
    when: "the screenshot target did not become ready within timeout_ms",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}
