// The label and expectation an invalid case carries: what was broken, where, and what the target must answer.
import { DELETE } from "./json-pointer.ts";
import type { Slot, Violation } from "./violation-slots.ts";

export function label(kind: string, pointer: string | null, value?: unknown): string {
  const shown = value === undefined || value === DELETE ? "" : ` = ${JSON.stringify(value)?.slice(0, 60)}`;
  return `${kind}${pointer === null ? "" : ` at ${pointer || "(body)"}`}${shown}`;
}

export function violationOf(s: Slot, pointer: string, value: unknown): Violation {
  return {
    kind: s.kind,
    label: label(s.kind, pointer, value),
    status: s.status,
    // a 400 for a value refused outside the schema need not carry errors[] (D-validation-status)
    field: s.status === 422 ? pointer : null,
    keyword: s.keyword,
  };
}

/** A violation of the body as a whole: 400, or 422 naming the body itself ("") (D-validation-status). */
export function shapeViolation(
  kind: Violation["kind"],
  keyword: string | null = null,
  status: 400 | 415 | 422 = 400,
): Violation {
  return { kind, label: label(kind, null), status, field: status === 422 ? "" : null, keyword };
}
