// The serializer of the contract's error shape (interface-spec "Errors"; D-error-body, D-payment-challenge).
// Servers and the mock answer every error through this one function.
import { ERROR_CATALOGUE, type ErrorCode, STATUS_LABELS } from "./error-catalogue.ts";

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

export interface ApiErrorBody {
  ok: false;
  error: string;
  message: string;
  code: ErrorCode;
  errors?: FieldError[];
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  [extra: string]: unknown;
}

export interface SerializedError {
  status: number;
  contentType: "application/json" | "application/problem+json";
  body: ApiErrorBody;
}

export const PAYMENT_PROBLEM_TYPE = "https://paymentauth.org/problems/payment-required";

export interface ErrorOptions {
  message?: string;
  errors?: FieldError[];
  /** extra members merged into the body (e.g. `challengeId`, or a not_found status response) */
  extra?: Record<string, unknown>;
}

/** A field's JSON Pointer as a reader writes it: `max_results`, `viewport.width`, `[1].query`, `body` for "". */
export function fieldPath(pointer: string): string {
  if (pointer === "") return "body";
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(token) ? `[${token}]` : out === "" ? token : `.${token}`;
  }
  return out;
}

/**
 * The top-level message of an error carrying `errors[]` (D-validation-message): the first violation, its field as a
 * path, and how many more there are: `max_results must be ≤ 50 (and 1 more)`.
 */
export function violationSummary(errors: FieldError[]): string {
  const [first] = errors;
  // an item's message starts with its field's pointer (D-error-codes); the summary names the field as a path
  const prefix = `${first.field || "body"} `;
  const said = first.message.startsWith(prefix) ? first.message.slice(prefix.length) : first.message;
  const rest = errors.length - 1;
  const sentence = `${fieldPath(first.field)} ${said.replace(/ <= /g, " ≤ ").replace(/ >= /g, " ≥ ")}`;
  return rest > 0 ? `${sentence} (and ${rest} more)` : sentence;
}

export function serializeError(code: ErrorCode, options: ErrorOptions = {}): SerializedError {
  const entry = ERROR_CATALOGUE[code];
  const message = options.message ?? (options.errors?.length ? violationSummary(options.errors) : entry.message);
  const body: ApiErrorBody = {
    ...options.extra,
    ok: false,
    error: STATUS_LABELS[entry.status] ?? "Error",
    message,
    code,
  };
  if (options.errors) body.errors = options.errors;
  if (entry.status === 402) {
    // RFC 9457 members of the payment problem (D-payment-challenge)
    Object.assign(body, {
      type: PAYMENT_PROBLEM_TYPE,
      title: STATUS_LABELS[402],
      status: 402,
      detail: message,
    });
    return { status: 402, contentType: "application/problem+json", body };
  }
  return { status: entry.status, contentType: "application/json", body };
}

/**
 * The catalogue code for what Node's HTTP parser refuses before a handler runs ('clientError', D-framework-errors):
 * oversized headers, a body cut off by the client, a request that did not arrive within the request timeout
 * (headers or body), anything else malformed. The mock, the reference and the proxy answer these alike.
 */
export function clientErrorCode(err: { code?: string }): ErrorCode {
  if (err.code === "HPE_HEADER_OVERFLOW") return "PLB_HEADERS_TOO_LARGE";
  // the client half-closed its side before the body's declared end
  if (err.code === "HPE_INVALID_EOF_STATE") return "PLB_BODY_INCOMPLETE";
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT" || err.code === "HPE_HEADERS_TIMEOUT") return "PLB_REQUEST_TIMEOUT";
  return "PLB_MALFORMED_REQUEST";
}
