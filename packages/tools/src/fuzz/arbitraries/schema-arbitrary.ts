// The one schema → arbitrary compiler (issue 6 "What to build"): every request body and parameter the fuzzer
// sends comes from the document's JSON Schemas through here; nothing is written per endpoint. It covers what the
// document uses: objects (required / optional / additionalProperties), arrays with min/maxItems, bounded integers
// and numbers, enums, strings with length and `uri` format, and the oneOf single-or-batch bodies.

import type { JsonSchema } from "@plumbline-kit/contract";
import { cssSelectorOfLength } from "@plumbline-kit/contract/bounds";
import fc from "fast-check";
import { plainJsonValue } from "./bad-values.ts";
import { arrayArbitrary, integerArbitrary, numberArbitrary, stringArbitrary } from "./boundary-values.ts";
import { uriArbitrary } from "./uri-arbitrary.ts";

export interface CompileContext {
  /**
   * Sample values for a free-form object at a JSON Pointer (the operation's request examples). A free-form
   * `response_format` is itself a JSON Schema (D-extract-response-format), so arbitrary keys would be noise.
   */
  samples?: (pointer: string) => unknown[];
  /** printable ASCII text only (no arbitrary Unicode) */
  ascii?: boolean;
  /** `format: uri` strings from elsewhere (a fixture site); null keeps the example domains */
  uri?: (minLength: number, maxLength: number | undefined) => fc.Arbitrary<string> | null;
  /** the target renders real pages: CSS selector fields (x-css-selector) match every page (D-screenshot-readiness) */
  realPages?: boolean;
}

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Values a schema-valid field may take but the target refuses (D-validation-status "bad value"), e.g. trending. */
export function acceptedValues(schema: JsonSchema): unknown[] | null {
  const v = schema["x-accepted-values"];
  return Array.isArray(v) && v.length > 0 ? v : null;
}

export function compileSchema(schema: JsonSchema, ctx: CompileContext = {}, pointer = ""): fc.Arbitrary<unknown> {
  if (schema.oneOf) {
    // single-or-batch: the single form three times out of four
    return fc.oneof(
      ...schema.oneOf.map((b) => ({
        arbitrary: compileSchema(b, ctx, pointer),
        weight: typesOf(b).includes("array") ? 1 : 3,
      })),
    );
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  const accepted = acceptedValues(schema);
  if (accepted) return fc.constantFrom(...accepted);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = typesOf(schema);
  if (types.length > 1) {
    return fc.oneof(...types.map((t) => compileSchema({ ...schema, type: t }, ctx, pointer)));
  }
  switch (types[0]) {
    case "object":
      return objectArbitrary(schema, ctx, pointer);
    case "array":
      return arrayArbitrary(compileSchema(schema.items ?? {}, ctx, `${pointer}/0`), schema);
    case "integer":
      return integerArbitrary(schema);
    case "number":
      return numberArbitrary(schema);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "string":
      if (schema["x-css-selector"] === true && ctx.realPages) {
        const min = Math.max(1, schema.minLength ?? 1);
        return fc.integer({ min, max: Math.max(min, Math.min(schema.maxLength ?? 64, 64)) }).map(cssSelectorOfLength);
      }
      if (schema.format !== "uri") return stringArbitrary(schema, ctx.ascii);
      return (
        ctx.uri?.(schema.minLength ?? 0, schema.maxLength) ?? uriArbitrary(schema.minLength ?? 0, schema.maxLength)
      );
    default:
      return plainJsonValue(2);
  }
}

function objectArbitrary(schema: JsonSchema, ctx: CompileContext, pointer: string): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    const samples = (ctx.samples?.(pointer) ?? []).filter((v) => v !== null && typeof v === "object");
    return fc.constantFrom<unknown>({}, ...samples);
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) model[name] = compileSchema(properties[name], ctx, `${pointer}/${name}`);
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((n) => names.includes(n)) });
}

/** The smallest value a schema accepts, for filling parents a violation needs (deterministic, no randomness). */
export function minimalValue(schema: JsonSchema): unknown {
  if (schema.oneOf) return minimalValue(schema.oneOf[0]);
  if (schema.const !== undefined) return schema.const;
  const accepted = acceptedValues(schema);
  if (accepted) return accepted[0];
  if (schema.enum) return schema.enum[0];
  switch (typesOf(schema)[0]) {
    case "object":
      return Object.fromEntries((schema.required ?? []).map((n) => [n, minimalValue(schema.properties?.[n] ?? {})]));
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items ?? {}));
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    case "string":
      return schema.format === "uri" ? "https://example.com/" : "a".repeat(schema.minLength ?? 0);
    default:
      return null;
  }
}
