// A request judged against its operation, with the answer the service gives such a request (D-validation-status):
// the same checks, the same order and the same error serializer as the service, so `--errors` can refuse it with
// exactly that answer before it reaches the upstream.
import type { Contract, FieldError, SerializedError } from "../../spec/index.ts";
import { normalizeContentType, serializeError } from "../../spec/index.ts";
import type { Exchange } from "../exchange.ts";
import { headerValue } from "../hop-headers.ts";
import type { MatchedOperation } from "../operation-match.ts";
import { queryOf } from "../operation-match.ts";

export interface RequestProblem {
  rule: "request-json" | "request-schema" | "request-parameters";
  message: string;
  errors?: FieldError[];
  /** what the service answers such a request */
  refusal: SerializedError;
}

/** The parsed JSON body of a request, undefined when there is none or it does not parse. */
export function requestJson(ex: Exchange): unknown {
  if (ex.request.body.length === 0) return undefined;
  try {
    return JSON.parse(ex.request.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

export function checkRequest(contract: Contract, match: MatchedOperation, ex: Exchange): RequestProblem | null {
  const { op } = match;
  if (op.parameters.length > 0) {
    const check = contract.validators.checkParameters(op.operationId, {
      query: queryOf(ex.request.path),
      path: match.params,
    });
    if (!check.ok)
      return {
        rule: "request-parameters",
        message: check.errors.map((e) => e.message).join("; "),
        errors: check.errors,
        refusal: serializeError("PLB_BAD_PARAMETER", { errors: check.errors }),
      };
  }
  if (!op.requestSchema) return null;
  const contentType = normalizeContentType(headerValue(ex.request.headers, "content-type"));
  if (ex.request.body.length > 0 && contentType !== "application/json" && !contentType.endsWith("+json")) {
    return {
      rule: "request-json",
      message: `Content-Type "${contentType || "(none)"}" is not JSON`,
      refusal: serializeError("PLB_UNSUPPORTED_MEDIA_TYPE"),
    };
  }
  let body: unknown;
  if (ex.request.body.length > 0) {
    try {
      body = JSON.parse(ex.request.body.toString("utf8"));
    } catch (err) {
      return {
        rule: "request-json",
        message: `the body is not valid JSON: ${(err as Error).message}`,
        refusal: serializeError("PLB_MALFORMED_JSON"),
      };
    }
  }
  const check = contract.validators.checkBody(op.operationId, body);
  if (check.ok) return null;
  if (check.kind === "shape")
    return {
      rule: "request-schema",
      message: "the body is neither an object nor a non-empty array",
      refusal: serializeError("PLB_BODY_SHAPE"),
    };
  return {
    rule: "request-schema",
    message: check.errors.map((e) => e.message).join("; "),
    errors: check.errors,
    refusal: serializeError("PLB_VALIDATION_FAILED", { errors: check.errors }),
  };
}
