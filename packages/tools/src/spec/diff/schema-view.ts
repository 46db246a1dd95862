// A schema as the diff reads it: `$ref`s followed, `allOf` merged, OpenAPI 3.0's `nullable` and boolean exclusive
// bounds read as 3.1 says them, and every keyword kept with the pointer where it is written. Two schemas that mean
// the same (a component inlined, keys reordered, a `$ref` into `allOf`) give views that compare equal.
import { child, isObj, type Loc, type Obj, type Resolver } from "./resolve.ts";

export interface SchemaView {
  /** where the schema is written (after `$ref`s) */
  pointer: string;
  refName?: string;
  /** the keywords, merged over `allOf` */
  kw: Obj;
  /** keyword → pointer of its value */
  at: Record<string, string>;
  /** property name → its schema, unresolved */
  props: Map<string, Loc>;
  /** the oneOf/anyOf alternatives, when the schema is a choice */
  branches: Loc[] | null;
}

/** Keywords that document and never restrict: a change to them is no change to the contract. */
export const ANNOTATIONS = new Set([
  "title",
  "description",
  "summary",
  "examples",
  "example",
  "$comment",
  "externalDocs",
  "xml",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
  "$id",
  "$anchor",
  "$defs",
  "definitions",
  "contentSchema",
]);

const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

const restricts = (k: string) => k !== "$ref" && !k.startsWith("x-") && !ANNOTATIONS.has(k);

function typeList(v: unknown): string[] | null {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.filter((t): t is string => typeof t === "string");
  return null;
}

/** Merges `from` into the view: allOf means every member holds, so bounds keep the tighter and lists add up. */
function absorb(view: SchemaView, from: SchemaView): void {
  for (const [k, v] of Object.entries(from.kw)) {
    const mine = view.kw[k];
    if (mine === undefined) {
      view.kw[k] = v;
      view.at[k] = from.at[k];
    } else if (k === "required" && Array.isArray(mine) && Array.isArray(v)) {
      view.kw[k] = [...new Set([...mine, ...v])];
    } else if (k === "type") {
      const a = typeList(mine) ?? [];
      const b = typeList(v) ?? [];
      const both = a.filter((t) => b.includes(t) || (t === "integer" && b.includes("number")));
      view.kw[k] = both.length === 1 ? both[0] : both;
    } else if (LOWER.has(k) && typeof mine === "number" && typeof v === "number" && v > mine) {
      view.kw[k] = v;
      view.at[k] = from.at[k];
    } else if (UPPER.has(k) && typeof mine === "number" && typeof v === "number" && v < mine) {
      view.kw[k] = v;
      view.at[k] = from.at[k];
    }
  }
  for (const [name, loc] of from.props) if (!view.props.has(name)) view.props.set(name, loc);
  if (!view.branches && from.branches) view.branches = from.branches;
}

export function schemaView(resolver: Resolver, input: Loc, depth = 0): SchemaView {
  const raw = input.node;
  if (isObj(raw) && typeof raw.$ref === "string" && Object.keys(raw).some(restricts) && depth < 16) {
    // a `$ref` beside other keywords (OpenAPI 3.1) holds together with them, as allOf does
    const { $ref, ...siblings } = raw;
    const view = schemaView(resolver, { node: siblings, pointer: input.pointer }, depth + 1);
    const target = schemaView(resolver, { node: { $ref }, pointer: input.pointer }, depth + 1);
    absorb(view, target);
    view.refName = target.refName;
    return view;
  }
  const loc = resolver.resolve(input);
  const node = loc.node;
  const view: SchemaView = {
    pointer: loc.pointer,
    refName: loc.refName ?? input.refName,
    kw: {},
    at: {},
    props: new Map(),
    branches: null,
  };
  if (!isObj(node)) {
    // `true` or a missing schema admit anything; `false` admits nothing
    if (node === false) {
      view.kw.not = {};
      view.at.not = loc.pointer;
    }
    return view;
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === "allOf" || k === "$ref" || k.startsWith("x-") || ANNOTATIONS.has(k)) continue;
    view.kw[k] = v;
    view.at[k] = `${loc.pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  // OpenAPI 3.0: `nullable: true` is `null` among the types; a boolean exclusive bound makes its bound exclusive
  if (view.kw.nullable === true) {
    const types = typeList(view.kw.type);
    if (types && !types.includes("null")) view.kw.type = [...types, "null"];
  }
  delete view.kw.nullable;
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof view.kw[flag] === "boolean") {
      if (view.kw[flag] === true && typeof view.kw[bound] === "number") {
        view.kw[flag] = view.kw[bound];
        view.at[flag] = view.at[bound];
        delete view.kw[bound];
      } else delete view.kw[flag];
    }
  }
  if (isObj(node.properties)) {
    const props = child(loc, "properties");
    for (const name of Object.keys(node.properties)) view.props.set(name, child(props, name));
  }
  delete view.kw.properties;
  for (const kw of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(node[kw]) && !view.branches) {
      view.branches = (node[kw] as unknown[]).map((_, i) => child(loc, kw, i));
      delete view.kw[kw];
    }
  }
  const members: Loc[] = Array.isArray(node.allOf) ? node.allOf.map((_, i) => child(loc, "allOf", i)) : [];
  if (depth < 16) for (const m of members) absorb(view, schemaView(resolver, m, depth + 1));
  return view;
}

/** The JSON types a view admits, `null` included; null when it admits any. */
export function typesOf(view: SchemaView): Set<string> | null {
  const listed = typeList(view.kw.type);
  if (listed) return new Set(listed);
  const values = Array.isArray(view.kw.enum) ? view.kw.enum : "const" in view.kw ? [view.kw.const] : null;
  if (values) return new Set(values.map(jsonType));
  // no `type`: what the keywords describe (a schema of properties is an object schema in every document we read)
  if (view.props.size > 0 || "required" in view.kw || "additionalProperties" in view.kw) return new Set(["object"]);
  if ("items" in view.kw || "prefixItems" in view.kw) return new Set(["array"]);
  return null;
}

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Canonical JSON: keys sorted, so reordered keys compare equal. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObj(v)) {
    return `{${Object.keys(v)
      .filter((k) => !k.startsWith("x-") && !ANNOTATIONS.has(k))
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "undefined";
}
