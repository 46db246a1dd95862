// Boundary cases derived from the request schemas (issue 2 §5; reused by conformance and fuzz): every bound at its
// edge (accepted) and one past it (rejected, naming the field and keyword), every enum value, unknown enum values,
// wrong types, unknown properties and missing required fields. Nothing here is written per endpoint.
import type { Contract } from "./contract.ts";
import type { JsonSchema } from "./json-schema.ts";
import { schemaTypes } from "./json-schema.ts";
import type { OperationSpec } from "./operations.ts";

export interface BoundCase {
  operationId: string;
  /** JSON Pointer of the field the case changes ("" is the whole body) */
  field: string;
  /** the keyword the case probes (`maximum`, `enum`, `additionalProperties`, …) */
  keyword: string;
  /** what the case does, for reports */
  label: string;
  /** the body to send */
  body: unknown;
  /** true when the contract accepts the body */
  valid: boolean;
  /**
   * set when the value is valid by a plumbline decision, not by the interface's text: an enum value the document
   * adds to the interface's list (`x-decided-enum`, e.g. D-search-engine-values). A suite judges such a case apart.
   */
  decision?: string;
}

/** The values a decision adds to an enum, with that decision (`x-decided-enum: {x-decision, values}`). */
export function decidedEnumValues(schema: JsonSchema): { decision: string; values: unknown[] } | null {
  const d = schema["x-decided-enum"] as { "x-decision"?: unknown; values?: unknown } | undefined;
  if (!d || typeof d["x-decision"] !== "string" || !Array.isArray(d.values)) return null;
  return { decision: d["x-decision"], values: d.values };
}

const UNKNOWN = "__plumbline_unknown__";

/** The object (single) branch of a request schema. */
export function objectBranch(op: OperationSpec): JsonSchema | null {
  const s = op.requestSchema;
  if (!s) return null;
  return (s.oneOf ?? [s]).find((b) => !schemaTypes(b).includes("array")) ?? null;
}

export function arrayBranch(op: OperationSpec): JsonSchema | null {
  return op.requestSchema?.oneOf?.find((b) => schemaTypes(b).includes("array")) ?? null;
}

/** A valid single body: the operation's first request example that is an object. */
export function baseBody(op: OperationSpec): Record<string, unknown> {
  const example = Object.values(op.requestExamples).find(
    (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  );
  if (!example) throw new Error(`${op.operationId}: no object request example to derive cases from`);
  return structuredClone(example) as Record<string, unknown>;
}

function tokens(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** A copy of `body` with the value at `pointer` set (`undefined` deletes it); missing parents are created. */
export function withValue<T>(body: T, pointer: string, value: unknown): T {
  const copy = structuredClone(body) as Record<string, unknown>;
  const path = tokens(pointer);
  let node = copy;
  for (const t of path.slice(0, -1)) {
    if (node[t] === null || typeof node[t] !== "object") node[t] = {};
    node = node[t] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as T;
}

/**
 * A CSS selector of exactly `length` characters that matches the root of every page (D-screenshot-readiness): a
 * selector matching nothing would make a real renderer wait out its timeout.
 */
export function cssSelectorOfLength(length: number): string {
  if (length < 4) return `*${" ".repeat(Math.max(0, length - 1))}`;
  if (length < 12) return `html${" ".repeat(length - 4)}`;
  return `html:not(#${"a".repeat(length - 11)})`;
}

/** A string of exactly `length` characters that also satisfies `format: uri` when the schema asks for it. */
function stringOfLength(schema: JsonSchema, length: number): string | null {
  if (schema["x-css-selector"] === true) return cssSelectorOfLength(length);
  if (schema.format !== "uri") return "a".repeat(length);
  const prefix = "https://example.com/";
  return length >= prefix.length ? prefix + "a".repeat(length - prefix.length) : null;
}

function casesFor(op: OperationSpec, base: Record<string, unknown>, schema: JsonSchema, pointer: string): BoundCase[] {
  const out: BoundCase[] = [];
  const add = (field: string, keyword: string, label: string, value: unknown, valid: boolean) =>
    out.push({ operationId: op.operationId, field, keyword, label, body: withValue(base, field, value), valid });
  const types = schemaTypes(schema);
  const integer = types.includes("integer");
  const step = integer ? 1 : 0.01;
  if (schema.minimum !== undefined) {
    add(pointer, "minimum", `${pointer} = minimum ${schema.minimum}`, schema.minimum, true);
    add(pointer, "minimum", `${pointer} = minimum - ${step}`, +(schema.minimum - step).toFixed(2), false);
  }
  if (schema.maximum !== undefined) {
    add(pointer, "maximum", `${pointer} = maximum ${schema.maximum}`, schema.maximum, true);
    add(pointer, "maximum", `${pointer} = maximum + ${step}`, +(schema.maximum + step).toFixed(2), false);
  }
  if (integer) {
    const near = (schema.minimum ?? 0) + 0.5;
    add(pointer, "type", `${pointer} = ${near} (not an integer)`, near, false);
  }
  if (schema.minLength !== undefined) {
    const edge = stringOfLength(schema, schema.minLength);
    if (edge !== null) add(pointer, "minLength", `${pointer} of length ${schema.minLength}`, edge, true);
    if (schema.minLength > 0) {
      const past = "a".repeat(schema.minLength - 1);
      add(pointer, "minLength", `${pointer} of length ${schema.minLength - 1}`, past, false);
    }
  }
  if (schema.maxLength !== undefined) {
    add(
      pointer,
      "maxLength",
      `${pointer} of length ${schema.maxLength}`,
      stringOfLength(schema, schema.maxLength),
      true,
    );
    add(
      pointer,
      "maxLength",
      `${pointer} of length ${schema.maxLength + 1}`,
      stringOfLength(schema, schema.maxLength + 1),
      false,
    );
  }
  if (schema.enum) {
    const decided = decidedEnumValues(schema);
    for (const v of schema.enum) {
      add(pointer, "enum", `${pointer} = ${JSON.stringify(v)}`, v, true);
      if (decided?.values.includes(v)) out[out.length - 1].decision = decided.decision;
    }
    add(pointer, "enum", `${pointer} = an unknown value`, UNKNOWN, false);
  }
  if (types.includes("boolean")) add(pointer, "type", `${pointer} as the string "true"`, "true", false);
  if (types.includes("string") && !schema.enum) add(pointer, "type", `${pointer} as a number`, 42, false);
  if (types.includes("array") && schema.items) {
    const itemTypes = schemaTypes(schema.items);
    add(`${pointer}`, "type", `${pointer} as a string`, "not-an-array", false);
    if (itemTypes.includes("string")) {
      out.push({
        operationId: op.operationId,
        field: `${pointer}/0`,
        keyword: "type",
        label: `${pointer}[0] as a number`,
        body: withValue(base, pointer, [1]),
        valid: false,
      });
    }
  }
  if (types.includes("object") && schema.properties) {
    const nestedBase = withValue(base, pointer, {});
    if (pointer) add(pointer, "type", `${pointer} as a string`, "not-an-object", false);
    if (schema.additionalProperties === false) {
      out.push({
        operationId: op.operationId,
        field: `${pointer}/${UNKNOWN}`,
        keyword: "additionalProperties",
        label: `unknown property ${pointer}/${UNKNOWN}`,
        body: withValue(pointer ? nestedBase : base, `${pointer}/${UNKNOWN}`, 1),
        valid: false,
      });
    }
    for (const name of schema.required ?? []) {
      out.push({
        operationId: op.operationId,
        field: `${pointer}/${name}`,
        keyword: "required",
        label: `missing ${pointer}/${name}`,
        body: withValue(base, `${pointer}/${name}`, undefined),
        valid: false,
      });
    }
    for (const [name, sub] of Object.entries(schema.properties)) {
      out.push(...casesFor(op, pointer ? nestedBase : base, sub, `${pointer}/${name}`));
    }
  }
  return out;
}

/** Every boundary case of every operation with a request body, for the contract's active profile. */
export function boundCases(contract: Contract): BoundCase[] {
  const out: BoundCase[] = [];
  for (const op of contract.contractOperations) {
    const single = objectBranch(op);
    if (!single) continue;
    const base = baseBody(op);
    out.push(...casesFor(op, base, single, ""));
    const array = arrayBranch(op);
    if (array?.maxItems !== undefined) {
      const full = Array.from({ length: array.maxItems }, () => base);
      out.push({
        operationId: op.operationId,
        field: "",
        keyword: "maxItems",
        label: `batch of ${array.maxItems}`,
        body: full,
        valid: true,
      });
      out.push({
        operationId: op.operationId,
        field: "",
        keyword: "maxItems",
        label: `batch of ${array.maxItems + 1}`,
        body: [...full, base],
        valid: false,
      });
      out.push({
        operationId: op.operationId,
        field: `/1/${UNKNOWN}`,
        keyword: "additionalProperties",
        label: "batch whose second entry has an unknown property",
        body: [base, { ...base, [UNKNOWN]: 1 }],
        valid: false,
      });
    }
  }
  return out;
}
