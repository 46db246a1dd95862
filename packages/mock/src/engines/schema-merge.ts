// Schema plumbing for the value generator: local `$ref` resolution and the merge that turns `allOf` (and a
// chosen `oneOf`/`anyOf` branch, and `if`+`then`) into one schema whose constraints all hold at once.
import { stableJson } from "./stable-json.ts";

export type Schema = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `#`, `#/$defs/x`, `#/definitions/x`, `#/properties/a/items`…: a JSON Pointer into the root document. */
export function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return true; // remote refs are not fetched; anything goes
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return true;
    node = (node as Record<string, unknown>)[token];
  }
  return node ?? true;
}

function typesOf(s: Schema): string[] | null {
  if (s.type === undefined) return null;
  return Array.isArray(s.type) ? (s.type as string[]) : [String(s.type)];
}

function intersectTypes(a: string[], b: string[]): string[] {
  const out = a.filter((t) => b.includes(t));
  if (a.includes("integer") && b.includes("number") && !out.includes("integer")) out.push("integer");
  if (b.includes("integer") && a.includes("number") && !out.includes("integer")) out.push("integer");
  return out;
}

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];

/** Both schemas' constraints in one (a and b already free of $ref, allOf, oneOf and anyOf at the top). */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, bv] of Object.entries(b)) {
    const av = out[key];
    if (av === undefined) {
      out[key] = bv;
      continue;
    }
    if (key === "type") {
      const ta = typesOf(a) ?? [];
      const tb = typesOf(b) ?? [];
      const t = intersectTypes(ta, tb);
      out.type = t.length === 1 ? t[0] : t.length ? t : av;
    } else if (key === "properties" && isSchemaObject(av) && isSchemaObject(bv)) {
      const props: Schema = { ...av };
      for (const [name, ps] of Object.entries(bv)) props[name] = name in av ? { allOf: [av[name], ps] } : ps;
      out.properties = props;
    } else if (key === "required" && Array.isArray(av) && Array.isArray(bv)) {
      out.required = [...new Set([...av, ...bv])];
    } else if (key === "enum" && Array.isArray(av) && Array.isArray(bv)) {
      const keep = new Set(bv.map(stableJson));
      out.enum = av.filter((v) => keep.has(stableJson(v)));
    } else if (LOWER.includes(key) && typeof av === "number" && typeof bv === "number") {
      out[key] = Math.max(av, bv);
    } else if (UPPER.includes(key) && typeof av === "number" && typeof bv === "number") {
      out[key] = Math.min(av, bv);
    } else if (key === "additionalProperties" || key === "unevaluatedProperties") {
      out[key] = av === false || bv === false ? false : { allOf: [av, bv] };
    } else if (key === "items" || key === "contains" || key === "not") {
      out[key] = key === "not" ? { anyOf: [av, bv] } : { allOf: [av, bv] };
    } else if (key === "multipleOf" && typeof av === "number" && typeof bv === "number") {
      out.multipleOf = Number.isInteger(av) && Number.isInteger(bv) ? lcm(av, bv) : Math.max(av, bv);
    } else {
      out[key] = bv;
    }
  }
  return out;
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}
