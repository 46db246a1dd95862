// A seeded JSON Schema → value generator, for extract's `results` (D-extract-response-format: results validate
// against the unwrapped schema). Handles types (and type arrays), properties/required/additionalProperties,
// dependentRequired, min/maxProperties, items/prefixItems/contains/uniqueItems, enum/const, number and string
// constraints (schema-number.ts, schema-string.ts), oneOf/anyOf (one branch), allOf/if-then (merged), and
// local $ref/$defs. variability "max" leaves out more optional properties, picks null more often and adds
// extra properties where the schema allows them.
import type { Rng } from "./rng.ts";
import { isSchemaObject, mergeSchemas, resolveRef, type Schema } from "./schema-merge.ts";
import { generateNumber } from "./schema-number.ts";
import { generateString, type PageFacts } from "./schema-string.ts";
import { stableJson } from "./stable-json.ts";

export interface GenerateOptions {
  rng: Rng;
  facts: PageFacts;
  variability: "normal" | "max";
}

/** Past this depth only what is required is generated, so recursive schemas end. */
const DEEP = 5;

interface Gen extends GenerateOptions {
  root: unknown;
}

export function generateValue(schema: unknown, options: GenerateOptions): unknown {
  return gen({ ...options, root: schema }, schema, "value", 0);
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** $ref, allOf, oneOf/anyOf and if/then folded into one plain schema (branches chosen by the rng). */
function normalize(g: Gen, node: unknown, depth: number): Schema {
  if (depth > 64) return {}; // a $ref cycle with no structure in between: nothing left to satisfy
  let cur: Schema = isSchemaObject(node) ? { ...node } : {};
  for (let steps = 0; steps < 64; steps++) {
    const { $ref, allOf, oneOf, anyOf, if: ifS, then, else: elseS, ...rest } = cur;
    if (typeof $ref === "string") {
      cur = { ...rest, allOf, oneOf, anyOf, if: ifS, then, else: elseS };
      cur = mergeSchemas(normalize(g, resolveRef(g.root, $ref), depth + 1), strip(cur));
    } else if (Array.isArray(oneOf) || Array.isArray(anyOf)) {
      const branches = (oneOf ?? anyOf) as unknown[];
      const shallow = branches.filter((b) => !stableJson(b).includes('"$ref"'));
      const branch = g.rng.pick(depth >= DEEP && shallow.length ? shallow : branches);
      const others = Array.isArray(oneOf) && Array.isArray(anyOf) ? { anyOf } : {};
      cur = mergeSchemas(strip({ ...rest, allOf, if: ifS, then, else: elseS, ...others }), normalize(g, branch, depth));
    } else if (Array.isArray(allOf)) {
      cur = allOf.reduce<Schema>(
        (acc, s) => mergeSchemas(acc, normalize(g, s, depth)),
        strip({ ...rest, if: ifS, then, else: elseS }),
      );
    } else if (isSchemaObject(then) && ifS !== undefined) {
      // a value satisfying `if` and `then` satisfies the conditional
      cur = mergeSchemas(mergeSchemas(rest, normalize(g, ifS, depth)), normalize(g, then, depth));
    } else if (isSchemaObject(elseS)) {
      cur = mergeSchemas(rest, normalize(g, elseS, depth));
    } else return rest;
  }
  return cur;
}

function strip(s: Schema): Schema {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
}

function chooseType(g: Gen, s: Schema): string {
  const declared = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [String(s.type)];
  if (declared.length === 0) {
    if (s.properties || s.required || s.additionalProperties !== undefined) return "object";
    if (s.items !== undefined || s.prefixItems || s.minItems !== undefined) return "array";
    if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return "number";
    return "string";
  }
  const real = declared.filter((t) => t !== "null");
  if (real.length === 0) return "null";
  if (real.length < declared.length && g.rng.chance(g.variability === "max" ? 0.4 : 0.1)) return "null";
  return g.rng.pick(real);
}

/** A required recursion (a node that must hold a node) has no finite value; stop there and let the check fail. */
const ABANDON = 48;

function gen(g: Gen, node: unknown, name: string, depth: number): unknown {
  if (node === false || depth > ABANDON) return undefined;
  const s = normalize(g, node, depth);
  if ("const" in s) return clone(s.const);
  if (Array.isArray(s.enum)) return s.enum.length ? clone(g.rng.pick(s.enum)) : undefined;
  switch (chooseType(g, s)) {
    case "null":
      return null;
    case "boolean":
      return g.rng.chance(0.5);
    case "integer":
      return generateNumber(s, true, name, g.rng);
    case "number":
      return generateNumber(s, false, name, g.rng);
    case "object":
      return genObject(g, s, depth);
    case "array":
      return genArray(g, s, name, depth);
    default:
      return generateString(s, name, g.rng, g.facts);
  }
}

function genObject(g: Gen, s: Schema, depth: number): Record<string, unknown> {
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const extraSchema = s.additionalProperties ?? s.unevaluatedProperties ?? true;
  const closed = extraSchema === false || s.patternProperties !== undefined || s.propertyNames !== undefined;
  const keepOptional = depth >= DEEP ? 0 : g.variability === "max" ? 0.5 : 0.85;
  const out: Record<string, unknown> = {};
  const add = (key: string) => {
    if (key in out) return;
    const value = gen(g, key in props ? props[key] : extraSchema, key, depth + 1);
    if (value !== undefined) out[key] = value;
  };
  const size = () => Object.keys(out).length;
  for (const key of Object.keys(props)) if (required.has(key) || g.rng.chance(keepOptional)) add(key);
  for (const key of required) add(key);
  const minProps = typeof s.minProperties === "number" ? s.minProperties : 0;
  for (const key of Object.keys(props)) if (size() < minProps) add(key);
  for (let i = 1; !closed && size() < minProps && i < 100; i++) add(`extra_${i}`);
  if (!closed && g.variability === "max" && depth < DEEP && g.rng.chance(0.5)) add("x_extra");
  const maxProps = typeof s.maxProperties === "number" ? s.maxProperties : Number.POSITIVE_INFINITY;
  for (const key of Object.keys(out).reverse()) if (size() > maxProps && !required.has(key)) delete out[key];
  // dependentRequired last: a trigger whose dependents would break maxProperties is dropped instead
  const dependent = isSchemaObject(s.dependentRequired) ? s.dependentRequired : {};
  for (const [key, deps] of Object.entries(dependent)) {
    if (!(key in out) || !Array.isArray(deps)) continue;
    const missing = deps.filter((d) => !(d in out));
    if (size() + missing.length > maxProps && !required.has(key)) delete out[key];
    else missing.forEach(add);
  }
  return out;
}

function genArray(g: Gen, s: Schema, name: string, depth: number): unknown[] {
  const prefix = (Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : []) as unknown[];
  const rest = Array.isArray(s.items) ? (s.additionalItems ?? true) : (s.items ?? true);
  const min = typeof s.minItems === "number" ? s.minItems : 0;
  let max = typeof s.maxItems === "number" ? s.maxItems : Math.max(min, prefix.length) + 3;
  if (rest === false) max = Math.min(max, prefix.length);
  const low = Math.max(min, Math.min(1, max));
  const length = depth >= DEEP ? min : g.rng.int(low, Math.max(low, Math.min(max, low + 3)));
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let guard = 0; out.length < length && guard < length * 10 + 10; guard++) {
    const item = gen(g, out.length < prefix.length ? prefix[out.length] : rest, singular(name), depth + 1);
    if (s.uniqueItems === true && seen.has(stableJson(item))) continue;
    seen.add(stableJson(item));
    out.push(item);
  }
  if (s.contains !== undefined && max > 0) {
    // one item that also satisfies `contains`, appended, or in the last place when the array is full
    const at = out.length < max ? out.length : out.length - 1;
    const base = at < prefix.length ? prefix[at] : rest;
    out[at] = gen(g, { allOf: [base === true ? {} : base, s.contains] }, singular(name), depth + 1);
  }
  return out;
}

function singular(name: string): string {
  return name.endsWith("s") ? name.slice(0, -1) : name;
}
