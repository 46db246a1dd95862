// What an answer of POST /feedback (the live contract) must not hold beyond its schema (D-feedback): the answer
// never echoes the report nor the credential it came with, whatever its status (a 201 holds only the report's id
// and status, which the schema already says; an error body or a header must not carry them either).
import type { ExchangeRule, Violation } from "./types.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

/** Texts shorter than this are not looked for: a short message ("ok", "bug") may appear in any answer by chance. */
export const ECHO_MIN_LENGTH = 16;

/** The bearer token of an Authorization header, when it is one worth looking for. */
function bearerToken(authorization: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "");
  return m && m[1].length >= 8 ? m[1] : null;
}

export const feedbackNoEcho: ExchangeRule = {
  kind: "exchange",
  id: "feedback-no-echo",
  title: "A /feedback answer echoes neither the report (its message or intent) nor the credential it was sent with",
  side: "response",
  severity: "major",
  basis: "D-feedback",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    if (ctx.op?.operationId !== "feedback" || ctx.status === null) return [];
    const body = ctx.bytes ? Buffer.from(ctx.bytes).toString("utf8") : "";
    const headers = Object.values(ctx.headers).join("\n");
    const out: Violation[] = [];
    const token = bearerToken(ctx.requestHeaders.authorization);
    if (token && (body.includes(token) || headers.includes(token)))
      out.push({
        rule: this.id,
        message: "the answer holds the credential the report was sent with",
        expected: "no credential in the answer",
      });
    const sent = obj(ctx.sent);
    for (const field of ["message", "intent"]) {
      const text = sent?.[field];
      if (typeof text !== "string" || text.trim().length < ECHO_MIN_LENGTH) continue;
      // as sent, and as JSON would carry it (escaped quotes, newlines)
      const forms = [text, JSON.stringify(text).slice(1, -1)];
      if (forms.some((f) => body.includes(f) || headers.includes(f)))
        out.push({
          rule: this.id,
          message: `the answer echoes the report's ${field}`,
          expected: "the report kept, not echoed",
          field: `/${field}`,
        });
    }
    return out;
  },
};
