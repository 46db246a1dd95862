// Boundary-biased leaf arbitraries (issue 6: "biased towards boundaries (min, max, min±1, max±1, empty,
// longest)"): every leaf draws half the time from its edge values and half from its whole range.

import type { JsonSchema } from "@plumbline-kit/contract";
import fc from "fast-check";

/** The largest integer a server is likely to mishandle when the schema sets no maximum (int32, then 2^53-1). */
const UNBOUNDED_EDGES = [2 ** 31 - 1, Number.MAX_SAFE_INTEGER];
/** Uniform draws stay near the minimum when no maximum is given; the edges above cover the far end. */
const UNBOUNDED_SPAN = 1000;
/** Strings without maxLength: the "longest" edge a fuzzer tries. */
export const UNBOUNDED_STRING_EDGE = 1024;

function uniq<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function edged<T>(edges: T[], range: fc.Arbitrary<T>): fc.Arbitrary<T> {
  if (edges.length === 0) return range;
  return fc.oneof({ arbitrary: fc.constantFrom(...edges), weight: 1 }, { arbitrary: range, weight: 1 });
}

/** Numeric `x-` annotations (e.g. `x-cap` of D-trending-platforms) are edges too: behaviour changes there. */
function annotatedEdges(schema: JsonSchema): number[] {
  return Object.entries(schema)
    .filter(([k, v]) => k.startsWith("x-") && typeof v === "number")
    .flatMap(([, v]) => [v as number, (v as number) + 1]);
}

export function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -(2 ** 31);
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  const uniformMax = schema.maximum ?? min + UNBOUNDED_SPAN;
  const edges = uniq([
    min,
    min + 1,
    max - 1,
    max,
    ...(schema.maximum === undefined ? UNBOUNDED_EDGES : []),
    ...(typeof schema.default === "number" ? [schema.default] : []),
    ...annotatedEdges(schema),
  ]).filter((v) => Number.isSafeInteger(v) && v >= min && v <= max);
  return edged(edges, fc.integer({ min, max: uniformMax }));
}

export function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e9;
  const max = schema.maximum ?? 1e9;
  const edges = uniq([min, max, (min + max) / 2, ...(typeof schema.default === "number" ? [schema.default] : [])]);
  return edged(
    edges,
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((v) => (Object.is(v, -0) ? 0 : v)),
  );
}

/** The surrogates U+D800..U+DFFF: no code point of a well-formed string, so no unit. */
const SURROGATE_START = 0xd800;
const SURROGATES = 0x800;

function indexOf(unit: unknown): number {
  const cp = typeof unit === "string" ? unit.codePointAt(0) : undefined;
  if (
    cp === undefined ||
    String.fromCodePoint(cp) !== unit ||
    (cp >= SURROGATE_START && cp < SURROGATE_START + SURROGATES)
  )
    throw new Error("not one code point");
  return cp < SURROGATE_START ? cp : cp - SURROGATES;
}

/**
 * One code point per unit, shared. Any code point is an integer mapped to it, with the inverse map fast-check asks
 * for when it tokenizes its "dangerous" strings (`__proto__`, …) once per unit: its own "binary" unit answered
 * that with a reverse map of every code point, 1.5 CPU-seconds at import, paid by every command that loads the
 * fuzzer (fuzz, gate, conform). The draws are alike: any code point but a surrogate, uniformly.
 */
const ASCII_UNIT = fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 });
const ANY_UNIT = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((i) => String.fromCodePoint(i < SURROGATE_START ? i : i + SURROGATES), indexOf);

export function unitArbitrary(ascii: boolean): fc.Arbitrary<string> {
  return ascii ? ASCII_UNIT : ANY_UNIT;
}

/** Code points, as JSON Schema counts string length; ASCII mostly, any Unicode sometimes unless `ascii`. */
export function textArbitrary(minLength: number, maxLength: number, ascii = false): fc.Arbitrary<string> {
  const printable = fc.string({ unit: ASCII_UNIT, minLength, maxLength });
  if (ascii) return printable;
  return fc.oneof(
    { arbitrary: printable, weight: 3 },
    { arbitrary: fc.string({ unit: ANY_UNIT, minLength, maxLength }), weight: 1 },
  );
}

/**
 * The "longest" edge is the exact maximum; `withCrossShrink` lets a failing longest value shrink into the first,
 * short branch (a fixed length alone would only ever shrink character by character).
 */
export function stringArbitrary(schema: JsonSchema, ascii = false): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, UNBOUNDED_STRING_EDGE);
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: textArbitrary(min, Math.min(max, min + 24), ascii), weight: 6 },
    { arbitrary: textArbitrary(min, min, ascii), weight: 2 },
    { arbitrary: fc.string({ unit: unitArbitrary(ascii), minLength: max, maxLength: max }), weight: 1 },
  );
}

/** Lengths of arrays: small mostly, the minimum and the maximum ("empty", "longest") as edges. */
export function arrayArbitrary<T>(item: fc.Arbitrary<T>, schema: JsonSchema, unboundedMax = 5): fc.Arbitrary<T[]> {
  const min = schema.minItems ?? 0;
  const max = schema.maxItems;
  const small = fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(max ?? unboundedMax, min + 4)) });
  if (max === undefined || max <= min + 4) return small;
  // the longest array cycles a few generated items up to the maximum: the length is the boundary, and 50 fresh
  // search entries would cost more to build than to send
  const longest = fc
    .array(item, { minLength: 1, maxLength: 3 })
    .map((list) => Array.from({ length: max }, (_, i) => list[i % list.length]));
  return fc.oneof({ withCrossShrink: true }, { arbitrary: small, weight: 12 }, { arbitrary: longest, weight: 1 });
}
