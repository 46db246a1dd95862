// The error shape (interface-spec "Errors"; D-error-body, D-validation-status, D-error-codes, D-validation-message)
// and what every answer carries (D-headers: the service-desc Link). An invalid request is refused, never served:
// 400 for what the decision calls malformed, 422 for a schema violation with errors[] naming the field.

import { fieldPath } from "../error-body.ts";
import { REQUEST_BODY_LIMIT_BYTES, STATUS_LABELS } from "../error-catalogue.ts";
import { checkRequest, type RequestProblem } from "./request-rules.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
const errorBody = (ctx: ExchangeContext) =>
  ctx.status !== null && ctx.status >= 400 && ctx.json?.ok ? obj(ctx.json.value) : undefined;

export const linkHeader: ExchangeRule = {
  kind: "exchange",
  id: "discovery-link-header",
  title: 'Every answer carries Link with </openapi.json>; rel="service-desc"',
  side: "response",
  severity: "minor",
  basis: "Discovery endpoints; D-headers",
  passive: true,
  needs: [],
  check(ctx) {
    if (!ctx.op || ctx.status === null) return [];
    if (/<[^>]*\/openapi\.json>;\s*rel="service-desc"/.test(ctx.headers.link ?? "")) return [];
    return [{ rule: this.id, message: "answer without the service-desc Link", actual: ctx.headers.link ?? "(none)" }];
  },
};

export const errorMembers: ExchangeRule = {
  kind: "exchange",
  id: "error-body-members",
  title: "Every error answer is a JSON body with ok: false, error and message",
  side: "response",
  severity: "major",
  basis: "Errors; D-error-body",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (!ctx.op || ctx.status === null || ctx.status < 400) return [];
    // an answer the judge kept no body of is not judged; a non-JSON one lacks every member
    if (!ctx.json && !ctx.bytes) return [];
    const b = ctx.json?.ok ? obj(ctx.json.value) : undefined;
    const missing = [
      b?.ok === false ? "" : "ok:false",
      typeof b?.error === "string" ? "" : "error",
      typeof b?.message === "string" ? "" : "message",
    ].filter(Boolean);
    return missing.length ? [{ rule: this.id, message: `error body lacks ${missing.join(", ")}` }] : [];
  },
};

export const errorLabel: ExchangeRule = {
  kind: "exchange",
  id: "error-status-label",
  title: "Every error body's `error` is the status label of the interface's status table",
  side: "response",
  severity: "minor",
  basis: "Errors; D-error-body",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const b = errorBody(ctx);
    const want = ctx.status === null ? undefined : STATUS_LABELS[ctx.status];
    if (!ctx.op || !b || !want || typeof b.error !== "string" || b.error === want) return [];
    return [{ rule: this.id, message: `${ctx.status} labelled "${b.error}"`, expected: want, actual: b.error }];
  },
};

// refused by the JSON parser before validation, with 400 (D-validation-status): the validators do not see them
const POISON = /"__proto__"\s*:|"constructor"\s*:\s*\{[^}]*"prototype"/;

/** The request body as sent (the recorded bytes, or the JSON the exchange carries), undefined when none. */
function sentBody(ctx: ExchangeContext) {
  const req = ctx.exchange.request;
  return req.body ?? (req.json === undefined ? undefined : JSON.stringify(req.json));
}

/** The request body's size in bytes, as sent. */
function bodyBytes(ctx: ExchangeContext): number {
  const body = sentBody(ctx);
  if (body === undefined) return 0;
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

/** What the service must answer this request, when the contract refuses it (null: it is valid, or not judged). */
function refusalOf(ctx: ExchangeContext): RequestProblem | null {
  return ctx.memo("refusal", () => {
    const req = ctx.exchange.request;
    if (!ctx.op || req.unknown) return null;
    const body = sentBody(ctx);
    if (body === undefined && ctx.op.requestSchema) return null;
    const text = typeof body === "string" ? body : body ? Buffer.from(body).toString("utf8") : "";
    if (POISON.test(text)) return null;
    return checkRequest(ctx.contract, ctx.op, {
      path: req.path,
      params: ctx.params,
      contentType: ctx.requestHeaders["content-type"],
      body: body ?? "",
    });
  });
}

export const invalidAccepted: ExchangeRule = {
  kind: "exchange",
  id: "invalid-request-accepted",
  title: "A request the contract's schemas refuse is never served: no 2xx for it",
  side: "response",
  severity: "critical",
  basis: "Resources and their fields; Endpoints; Limits 1",
  passive: true,
  needs: ["request-body"],
  check(ctx) {
    if (ctx.status === null || ctx.status < 200 || ctx.status >= 300) return [];
    const p = refusalOf(ctx);
    if (!p) return [];
    return [
      {
        rule: this.id,
        message: `an invalid request was answered ${ctx.status}: ${p.message}`,
        expected: `${p.refusal.status} ${p.refusal.body.code}`,
        actual: String(ctx.status),
      },
    ];
  },
};

export const validationStatus: ExchangeRule = {
  kind: "exchange",
  id: "validation-status",
  title: "A refused request gets the decided status (400 malformed, 422 schema) and a 422 names the field in errors[]",
  side: "response",
  severity: "major",
  basis: "Errors; D-validation-status; D-error-codes",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    if (ctx.status !== 400 && ctx.status !== 422) return [];
    const p = refusalOf(ctx);
    if (!p) return [];
    if (
      ctx.status === 400 &&
      errorBody(ctx)?.code === "PLB_BODY_TOO_LARGE" &&
      bodyBytes(ctx) > REQUEST_BODY_LIMIT_BYTES
    )
      return []; // refused by its size before it was read (D-validation-status)
    const out: Violation[] = [];
    const want = p.refusal.status;
    if (ctx.status !== want)
      out.push({
        rule: this.id,
        message: `${ctx.status} where the contract says ${want} (${p.rule}: ${p.message})`,
        expected: `${want} ${p.refusal.body.code}`,
        actual: String(ctx.status),
      });
    const b = errorBody(ctx);
    if (ctx.status !== 422 || want !== 422 || !b) return out;
    const errors = Array.isArray(b.errors) ? (b.errors as unknown[]).map((e) => obj(e) ?? {}) : [];
    const fields = new Set((p.errors ?? []).map((e) => e.field));
    if (errors.length === 0)
      out.push({ rule: this.id, message: "a 422 without errors[]", expected: "errors[] naming the violated fields" });
    else if (fields.size > 0 && !errors.some((e) => fields.has(e.field as string)))
      out.push({
        rule: this.id,
        message: "errors[] names none of the violated fields",
        expected: [...fields].join(", "),
        actual: errors.map((e) => String(e.field)).join(", "),
      });
    return out;
  },
};

/** The ways a message can name a violated field: its JSON Pointer, its path, or its last name. */
function namings(field: string): string[] {
  const last = field.split("/").pop() ?? "";
  return [field, fieldPath(field), last].filter((n) => n !== "" && n !== "/");
}

export const messageNamesField: ExchangeRule = {
  kind: "exchange",
  id: "client-validation-message-names-field",
  title: "A 422's message names a violated field, not only errors[]",
  side: "response",
  severity: "minor",
  basis: "Errors; D-validation-message (clients: @search1api/client 0.2.1 and search1api-mcp 0.5.3)",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    const b = ctx.status === 422 && ctx.op ? errorBody(ctx) : undefined;
    if (!b) return [];
    const fields = (Array.isArray(b.errors) ? (b.errors as unknown[]) : [])
      .map((e) => obj(e)?.field)
      .filter((f): f is string => typeof f === "string");
    if (fields.length === 0) return []; // errors[] itself is validation-status's
    const message = typeof b.message === "string" ? b.message : "";
    if (fields.some((f) => namings(f).some((n) => message.includes(n)))) return [];
    return [
      {
        rule: this.id,
        message: "the message names no violated field",
        expected: `a message naming ${fieldPath(fields[0])}`,
        actual: JSON.stringify(message),
      },
    ];
  },
};
