// What every answer owes its operation, whatever was asked: a listed status, a declared content type, a body of the
// schema for that status, the headers declared for it (interface-spec "Endpoints", "Errors", "Resources and their
// fields"; D-headers), and the request id echoed.
import type { FieldError } from "../error-body.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

/** The header problems of the answer, each under the rule that owns it (401/402/429 challenges have their own). */
export function headerErrors(ctx: ExchangeContext): Array<{ rule: string; error: FieldError }> {
  return ctx.memo("header-errors", () => {
    if (!ctx.op || ctx.status === null) return [];
    const status = ctx.status;
    return (ctx.contract.validators.checkResponseHeaders(ctx.op.operationId, status, ctx.headers) ?? []).map(
      (error) => {
        const name = error.field.replace(/^\/headers\//, "");
        let rule = "response-headers";
        if (status === 401 && name === "www-authenticate") rule = "auth-challenge";
        if (status === 402 && name === "www-authenticate") rule = "payment-problem";
        // judged by rate-limit-retry-after itself (rate-limit-rules.ts), with the window it must not exceed
        if (status === 429 && name === "retry-after") rule = "rate-limit-retry-after";
        return { rule, error };
      },
    );
  });
}

function headerViolations(ctx: ExchangeContext, rule: string): Violation[] {
  return headerErrors(ctx)
    .filter((h) => h.rule === rule)
    .map((h) => ({
      rule,
      message: h.error.message,
      actual: h.error.field.replace(/^\/headers\//, ""),
      field: h.error.field,
      code: h.error.code,
    }));
}

/** The content types the operation declares for the answer's status ([] when it declares none). */
function declaredTypes(ctx: ExchangeContext): string[] {
  const res = ctx.op && ctx.status !== null ? ctx.op.responses.get(ctx.status) : undefined;
  return Object.keys(res?.content ?? {});
}

export const statusListed: ExchangeRule = {
  kind: "exchange",
  id: "response-status-listed",
  title: "Every answer's status is one its operation lists",
  side: "response",
  severity: "major",
  basis: "Endpoints; Errors",
  passive: true,
  needs: [],
  check(ctx) {
    if (!ctx.op || ctx.status === null || ctx.op.statuses.includes(ctx.status)) return [];
    return [
      {
        rule: this.id,
        message: `status ${ctx.status} is not listed for ${ctx.op.operationId}`,
        expected: ctx.op.statuses.join(", "),
        actual: String(ctx.status),
        code: "status",
      },
    ];
  },
};

export const contentTypeDeclared: ExchangeRule = {
  kind: "exchange",
  id: "response-content-type",
  title: "Every answer has a content type its operation declares for that status",
  side: "response",
  severity: "major",
  basis: "What the service does; Errors",
  passive: true,
  needs: [],
  check(ctx) {
    const types = declaredTypes(ctx);
    if (types.length === 0 || types.includes(ctx.contentType)) return [];
    return [
      {
        rule: this.id,
        message: `content type "${ctx.contentType}" is not one of ${types.join(", ")}`,
        expected: types.join(", "),
        actual: ctx.contentType,
        code: "contentType",
      },
    ];
  },
};

export const responseSchema: ExchangeRule = {
  kind: "exchange",
  id: "response-schema",
  title: "Every JSON answer parses and validates against the operation's schema for its status",
  side: "response",
  severity: "critical",
  basis: "Resources and their fields; Errors",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (!ctx.op || ctx.status === null || !ctx.json) return [];
    if (!ctx.json.ok)
      return [{ rule: this.id, message: ctx.json.reason, expected: ctx.contentType, field: "", code: "json" }];
    if (!declaredTypes(ctx).includes(ctx.contentType)) return [];
    const errors =
      ctx.contract.validators.checkResponse(ctx.op.operationId, ctx.status, ctx.contentType, ctx.json.value) ?? [];
    return errors.map((e) => ({ rule: this.id, message: e.message, actual: e.code, field: e.field, code: e.code }));
  },
};

export const responseHeaders: ExchangeRule = {
  kind: "exchange",
  id: "response-headers",
  title: "Every answer carries the headers its response declares, with values of their schemas",
  side: "response",
  severity: "major",
  basis: "D-headers",
  passive: true,
  needs: [],
  check: (ctx) => headerViolations(ctx, "response-headers"),
};

export const authChallenge: ExchangeRule = {
  kind: "exchange",
  id: "auth-challenge",
  title: 'A 401 carries WWW-Authenticate: Bearer … resource_metadata="…" (RFC 9728)',
  side: "response",
  severity: "major",
  basis: "Authentication; D-auth",
  passive: true,
  needs: [],
  check: (ctx) => headerViolations(ctx, "auth-challenge"),
};

// an id is echoed when it is sane, printable ASCII of at most 128 characters; another gets a new one (D-headers)
const SANE_ID = /^[\x21-\x7e]{1,128}$/;

export const requestIdEcho: ExchangeRule = {
  kind: "exchange",
  id: "request-id-echo",
  title: "Every answer carries x-request-id, echoing the one the client sent",
  side: "response",
  severity: "minor",
  basis: "Errors (request id); D-headers",
  passive: true,
  needs: [],
  check(ctx) {
    if (!ctx.op || ctx.status === null) return [];
    const sentId = ctx.requestHeaders["x-request-id"];
    if (!sentId || !SANE_ID.test(sentId) || ctx.headers["x-request-id"] === sentId) return [];
    return [
      {
        rule: this.id,
        message: "x-request-id does not echo the request's",
        expected: sentId,
        actual: ctx.headers["x-request-id"] ?? "(none)",
      },
    ];
  },
};
