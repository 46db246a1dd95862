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

export function serializeError(code: ErrorCode, options: ErrorOptions = {}): SerializedError {
  const entry = ERROR_CATALOGUE[code];
  const message = options.message ?? entry.message;
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
