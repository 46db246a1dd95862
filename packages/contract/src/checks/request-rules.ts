// A request judged against its operation, with the answer the service gives such a request (D-validation-status):
// the same checks, the same order and the same error serializer as the service. These judge the client's side: the
// proxy applies them (and its `--errors` refuses with exactly that answer); the active judges, which send invalid
// requests on purpose, do not.
import type { Contract } from "../contract.ts";
import { type FieldError, type SerializedError, serializeError } from "../error-body.ts";
import type { OperationSpec } from "../operations.ts";
import { normalizeContentType } from "../validators.ts";
import { queryOf } from "./operation-match.ts";
import type { ExchangeContext, ExchangeRule } from "./types.ts";

export interface RequestProblem {
  rule: "request-json" | "request-schema" | "request-parameters";
  message: string;
  errors?: FieldError[];
  /** what the service answers such a request */
  refusal: SerializedError;
}

export interface RequestToJudge {
  /** path and query as sent */
  path: string;
  params: Record<string, string>;
  contentType: string | undefined;
  /** the body's bytes or text ("" or empty when none) */
  body: Uint8Array | string;
}

export function checkRequest(contract: Contract, op: OperationSpec, req: RequestToJudge): RequestProblem | null {
  if (op.parameters.length > 0) {
    const check = contract.validators.checkParameters(op.operationId, { query: queryOf(req.path), path: req.params });
    if (!check.ok)
      return {
        rule: "request-parameters",
        message: check.errors.map((e) => e.message).join("; "),
        errors: check.errors,
        refusal: serializeError("PLB_BAD_PARAMETER", { errors: check.errors }),
      };
  }
  if (!op.requestSchema) return null;
  const contentType = normalizeContentType(req.contentType);
  const length = req.body.length;
  if (length > 0 && contentType !== "application/json" && !contentType.endsWith("+json")) {
    return {
      rule: "request-json",
      message: `Content-Type "${contentType || "(none)"}" is not JSON`,
      refusal: serializeError("PLB_UNSUPPORTED_MEDIA_TYPE"),
    };
  }
  let body: unknown;
  if (length > 0) {
    try {
      body = JSON.parse(typeof req.body === "string" ? req.body : Buffer.from(req.body).toString("utf8"));
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

function problemOf(ctx: ExchangeContext): RequestProblem | null {
  return ctx.memo("request-problem", () => {
    const req = ctx.exchange.request;
    if (!ctx.op || req.unknown) return null;
    // a judge that never had the body whole (the proxy's `unread`) judges no body
    const body = req.body ?? (req.json === undefined ? undefined : JSON.stringify(req.json));
    if (body === undefined && ctx.op.requestSchema) return null;
    return checkRequest(ctx.contract, ctx.op, {
      path: req.path,
      params: ctx.params,
      contentType: ctx.requestHeaders["content-type"],
      body: body ?? "",
    });
  });
}

const requestRule = (id: RequestProblem["rule"], title: string, basis: string): ExchangeRule => ({
  kind: "exchange",
  id,
  title,
  side: "request",
  severity: "major",
  basis,
  passive: true,
  needs: id === "request-parameters" ? [] : ["request-body"],
  check(ctx) {
    const p = problemOf(ctx);
    if (!p || p.rule !== id) return [];
    return [{ rule: id, message: p.message, actual: `${p.refusal.status} ${p.refusal.body.code}` }];
  },
});

export const requestJson = requestRule(
  "request-json",
  "A request to a JSON operation is JSON (Content-Type application/json, a body that parses)",
  "Errors; D-validation-status",
);
export const requestSchema = requestRule(
  "request-schema",
  "A request body is an object or a non-empty array that validates against the operation's schema",
  "Resources and their fields; D-validation-status",
);
export const requestParameters = requestRule(
  "request-parameters",
  "Query and path parameters validate against the operation's parameters",
  "Endpoints; D-validation-status",
);
