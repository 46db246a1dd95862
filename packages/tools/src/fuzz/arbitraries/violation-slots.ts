// Where a valid body can break, read from its schema: one slot per (field, rule). Each slot draws a value that
// breaks exactly that rule and says what the target must answer: 422 naming the field and the failed keyword
// (D-validation-status, D-error-codes), or 400 for a schema-valid value refused outside the schema.

import type { JsonSchema } from "@plumbline-kit/contract";
import { escapePointerToken } from "@plumbline-kit/contract/validators";
import fc from "fast-check";
import { badEnum, plainJsonValue, unknownName, WRONG_TYPED } from "./bad-values.ts";
import { unitArbitrary } from "./boundary-values.ts";
import { DELETE } from "./json-pointer.ts";
import { acceptedValues } from "./schema-arbitrary.ts";
import { uriArbitrary } from "./uri-arbitrary.ts";

export type ViolationKind =
  | "below-minimum"
  | "above-maximum"
  | "not-integer"
  | "wrong-type"
  | "too-short"
  | "too-long"
  | "too-few-items"
  | "too-many-items"
  | "bad-enum"
  | "bad-format"
  | "not-accepted"
  | "unknown-property"
  | "missing-required"
  | "empty-batch"
  | "oversized-batch"
  | "not-an-object"
  | "malformed-json"
  | "wrong-content-type"
  | "bad-parameter";

/** The labelled expectation every invalid case carries. */
export interface Violation {
  kind: ViolationKind;
  label: string;
  /** 415 for a body that is not JSON on an operation that lists it (the live contract's /feedback, D-feedback) */
  status: 400 | 415 | 422;
  /** JSON Pointer the answer's errors[] must name (null: the answer need not carry errors[]) */
  field: string | null;
  /** the errors[].code expected beside that field (D-error-codes) */
  keyword: string | null;
}

export interface Slot {
  kind: ViolationKind;
  keyword: string | null;
  status: 400 | 422;
  /** the breaking value, and the pointer where it goes */
  draw: fc.Arbitrary<{ pointer: string; value: unknown }>;
}

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function at(pointer: string, value: fc.Arbitrary<unknown>) {
  return value.map((v) => ({ pointer, value: v }));
}

function slot(kind: ViolationKind, keyword: string | null, pointer: string, value: fc.Arbitrary<unknown>): Slot {
  return { kind, keyword, status: 422, draw: at(pointer, value) };
}

export function violationSlots(schema: JsonSchema, pointer = ""): Slot[] {
  const out: Slot[] = [];
  const types = typesOf(schema);
  const integer = types.includes("integer");
  if (pointer !== "" && types.length === 1 && WRONG_TYPED[types[0]]) {
    out.push(slot("wrong-type", "type", pointer, fc.constantFrom(...WRONG_TYPED[types[0]])));
  }
  if (types.includes("integer") || types.includes("number")) {
    const step = integer ? 1 : 1e-6;
    if (schema.minimum !== undefined) {
      const min = schema.minimum;
      const far = integer
        ? fc.integer({ min: -(2 ** 31), max: min - 1 })
        : fc.double({ min: -1e6, max: min - step, noNaN: true });
      out.push(slot("below-minimum", "minimum", pointer, fc.oneof(fc.constant(min - step), far)));
    }
    if (schema.maximum !== undefined) {
      const max = schema.maximum;
      const far = integer
        ? fc.integer({ min: max + 1, max: 2 ** 31 })
        : fc.double({ min: max + step, max: 1e6, noNaN: true });
      out.push(slot("above-maximum", "maximum", pointer, fc.oneof(fc.constant(max + step), far)));
    }
    if (integer) {
      const base = schema.minimum ?? 0;
      out.push(slot("not-integer", "type", pointer, fc.constantFrom(base + 0.5, base + 1.25)));
    }
  }
  if (types.includes("string")) {
    const accepted = acceptedValues(schema);
    if (schema.enum) out.push(slot("bad-enum", "enum", pointer, badEnum(schema.enum)));
    else if (accepted) {
      const refused = fc.stringMatching(/^[a-z]{1,12}$/).filter((v) => !accepted.includes(v));
      out.push({ kind: "not-accepted", keyword: null, status: 400, draw: at(pointer, refused) });
    }
    if ((schema.minLength ?? 0) > 0) {
      const n = schema.minLength as number;
      out.push(
        slot(
          "too-short",
          "minLength",
          pointer,
          fc.string({ unit: unitArbitrary(true), minLength: n - 1, maxLength: n - 1 }),
        ),
      );
    }
    if (schema.maxLength !== undefined) {
      const n = schema.maxLength;
      const long =
        schema.format === "uri"
          ? uriArbitrary(n + 1, n + 8)
          : fc.string({ unit: unitArbitrary(true), minLength: n + 1, maxLength: n + 8 });
      out.push(slot("too-long", "maxLength", pointer, long));
    }
    if (schema.format === "uri") {
      const notUri = fc.constantFrom("example.com/page", "not a uri", "//example.com/x", "http//example.com");
      out.push(slot("bad-format", "format", pointer, notUri));
    }
  }
  if (types.includes("array")) {
    const items = schema.items ? typesOf(schema.items) : [];
    if (items.length === 1 && WRONG_TYPED[items[0]]) {
      out.push(slot("wrong-type", "type", `${pointer}/0`, fc.constantFrom(...WRONG_TYPED[items[0]])));
    }
    if ((schema.minItems ?? 0) > 0) out.push(slot("too-few-items", "minItems", pointer, fc.constant([])));
  }
  if (types.includes("object") && schema.properties) {
    const names = Object.keys(schema.properties);
    if (schema.additionalProperties === false) {
      const draw = fc
        .record({ name: unknownName(names), value: plainJsonValue(1) })
        .map(({ name, value }) => ({ pointer: `${pointer}/${escapePointerToken(name)}`, value }));
      out.push({ kind: "unknown-property", keyword: "additionalProperties", status: 422, draw });
    }
    for (const name of schema.required ?? []) {
      out.push(slot("missing-required", "required", `${pointer}/${escapePointerToken(name)}`, fc.constant(DELETE)));
    }
    for (const [name, sub] of Object.entries(schema.properties)) {
      out.push(...violationSlots(sub, `${pointer}/${escapePointerToken(name)}`));
    }
  }
  return out;
}
