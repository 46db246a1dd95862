// What invalid input must get (issue 6 "Properties"; D-validation-status, D-error-codes): exactly the labelled
// status, and for a 422 (or a parameter 400) an errors[] item naming the violated field with the failed keyword.
// The balance check (nothing charged) is the caller's, around the call.
import type { FuzzCase } from "../fuzz-case.ts";
import type { HttpOutcome } from "../http/http-client.ts";
import { type CheckFailure, fail } from "./check-failure.ts";

type Answer = Extract<HttpOutcome, { ok: true }>;

export function judgeInvalidAnswer(c: FuzzCase, answer: Answer): CheckFailure[] {
  const v = c.violation;
  if (!v || answer.status === 429) return [];
  if (answer.status !== v.status) {
    return [fail("negative-rejected", `${v.label}: expected ${v.status}, got ${answer.status}`)];
  }
  if (v.field === null) return [];
  const errors = (answer.json as { errors?: unknown } | undefined)?.errors;
  const list = Array.isArray(errors) ? (errors as Array<{ field?: unknown; code?: unknown }>) : [];
  const named = list.some((e) => e?.field === v.field && (v.keyword === null || e?.code === v.keyword));
  if (named) return [];
  const seen = list.map((e) => `${String(e?.field)} (${String(e?.code)})`).join(", ") || "no errors[]";
  return [
    fail("error-names-field", `${v.label}: errors[] should name ${v.field || "(body)"} (${v.keyword}); it has ${seen}`),
  ];
}
