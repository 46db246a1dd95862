// Values that break one rule: a value of each other JSON type, near misses of an enum (case, padding, a letter
// more or less), and near misses of a property name (a plural, a case change, an underscore).
import fc from "fast-check";
import { unitArbitrary } from "./boundary-values.ts";

/** For each JSON type, values of other types (a numeric string for an integer: no coercion, D-validation-status). */
export const WRONG_TYPED: Record<string, unknown[]> = {
  string: [42, true, null, ["x"], {}],
  integer: ["5", true, null, []],
  number: ["1.5", false, null, {}],
  boolean: ["true", 1, 0, null],
  array: ["x", 7, {}, null],
  object: ["x", 7, [], null],
};

/** Near-miss enum values and any other short string, never one of the values. */
export function badEnum(values: unknown[]): fc.Arbitrary<unknown> {
  const strings = values.filter((v): v is string => typeof v === "string" && v.length > 0);
  const near = strings.flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v}x`, v.slice(1)]);
  const other = fc.string({ unit: unitArbitrary(true), maxLength: 12 });
  return (near.length ? fc.oneof(fc.constantFrom(...near), other) : other).filter((v) => !values.includes(v));
}

/**
 * D-validation-status: a body carrying a prototype-poisoning key (`__proto__`, `constructor`) anywhere answers 400
 * from the JSON parser, before schema validation; such bodies are another class of case than the one their
 * generator meant (an unknown property answers 422, a free-form value is accepted), so generators leave them out.
 * The decided 400 itself is replayed from fuzz/corpus/known/platform-proto-key-400.json.
 */
const PROTOTYPE_KEY = /"(__proto__|constructor)":/;
export const noPrototypeKeys = (v: unknown) => !PROTOTYPE_KEY.test(JSON.stringify(v) ?? "");

/** Any JSON value of at most `maxDepth` levels that carries no prototype-poisoning key. */
export const plainJsonValue = (maxDepth: number) => fc.jsonValue({ maxDepth }).filter(noPrototypeKeys);

/** Near-miss property names and any other identifier, never one of the names. */
export function unknownName(names: string[]): fc.Arbitrary<string> {
  const near = names.flatMap((n) => [`${n}s`, n.toUpperCase(), n.replace(/_/g, ""), `${n}_`]);
  const other = fc.stringMatching(/^[a-z][a-zA-Z_]{0,15}$/);
  return (near.length ? fc.oneof(fc.constantFrom(...near), other) : other).filter(
    (n) => !names.includes(n) && n !== "constructor",
  );
}
