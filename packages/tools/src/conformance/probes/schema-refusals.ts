// The refusals the schemas imply beyond spec/bounds.ts's edges (issue 35), derived from the document, nothing listed
// by hand: for every operation with a closed request object (`additionalProperties: false`),
//  - every property another operation admits and this one does not, with a value valid where it belongs: the
//    fields of the siblings (operations sharing a property with this one: `page` of search on news,
//    `enableFallback` of crawl on sitemap, `format` of screenshot on crawl) in a request of their own, since a
//    target that validates one operation with a sibling's schema accepts exactly those; the fields of unrelated
//    operations packed with the rest;
//  - every JSON type a property does not admit (a string where an integer goes, null, an array, an object, a
//    boolean), the ones spec/bounds.ts already sends aside;
//  - one past an array property's minItems / maxItems, and a batch where the operation takes none.
// Each case is kept only if the contract's own validators reject its body naming the case's field and keyword, so a
// target is never asked for more than the contract says.

import type { Contract, JsonSchema } from "@plumbline-kit/contract";
import { arrayBranch, type BoundCase, baseBody, objectBranch, withValue } from "@plumbline-kit/contract/bounds";
import { schemaTypes } from "@plumbline-kit/contract/json-schema";
import type { OperationSpec } from "@plumbline-kit/contract/operations";

/** A derived refusal; `apart`: the cases sharing it go in a request of their own (the siblings' fields). */
export interface RefusalCase extends BoundCase {
  derived: true;
  apart?: string;
}

const props = (op: OperationSpec) => Object.keys(objectBranch(op)?.properties ?? {});

/** A value of `schema` that its own operation would accept, for sending it where it does not belong. */
function validValue(owner: OperationSpec, name: string, schema: JsonSchema): unknown {
  let example: Record<string, unknown> | undefined;
  try {
    example = baseBody(owner);
  } catch {
    example = undefined;
  }
  if (example && name in example) return example[name];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const types = schemaTypes(schema);
  if (types.includes("integer") || types.includes("number")) return schema.minimum ?? 1;
  if (types.includes("boolean")) return true;
  if (types.includes("array")) return [];
  if (types.includes("object")) return {};
  return schema.format === "uri" ? "https://example.com/" : "a".repeat(Math.max(1, schema.minLength ?? 1));
}

/**
 * The other operations in the order their fields are tried: siblings first (most shared properties), then the
 * rest in document order.
 */
function siblingsOf(contract: Contract, op: OperationSpec): Array<{ owner: OperationSpec; shared: number }> {
  const mine = new Set(props(op));
  return contract.contractOperations
    .filter((o) => o !== op && objectBranch(o))
    .map((owner) => ({ owner, shared: props(owner).filter((p) => mine.has(p)).length }))
    .sort((a, b) => b.shared - a.shared);
}

function foreignFields(contract: Contract, op: OperationSpec, base: Record<string, unknown>): RefusalCase[] {
  const mine = objectBranch(op);
  if (mine?.additionalProperties !== false) return [];
  const out: RefusalCase[] = [];
  const seen = new Set(Object.keys(mine.properties ?? {}));
  for (const { owner, shared } of siblingsOf(contract, op)) {
    for (const [name, schema] of Object.entries(objectBranch(owner)?.properties ?? {})) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({
        operationId: op.operationId,
        field: `/${name}`,
        keyword: "additionalProperties",
        label: `/${name}, a field of ${owner.operationId}, not of ${op.operationId}`,
        body: withValue(base, `/${name}`, validValue(owner, name, schema)),
        valid: false,
        derived: true,
        ...(shared > 0 ? { apart: "siblings" } : {}),
      });
    }
  }
  return out;
}

// one value of each JSON type; spec/bounds.ts already sends a number for a string, "true" for a boolean, a string
// for an array or an object, and 0.5 for an integer
const SAMPLES: Array<{ type: string; value: unknown; label: string }> = [
  { type: "string", value: "1", label: 'the string "1"' },
  { type: "boolean", value: true, label: "true" },
  { type: "null", value: null, label: "null" },
  { type: "array", value: [], label: "an array" },
  { type: "object", value: {}, label: "an object" },
  { type: "number", value: 42, label: "a number" },
];

function admits(types: string[], type: string): boolean {
  if (types.includes(type)) return true;
  return type === "integer" && types.includes("number");
}

function wrongTypes(op: OperationSpec, base: Record<string, unknown>, schema: JsonSchema, pointer: string) {
  const out: RefusalCase[] = [];
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    const field = `${pointer}/${name}`;
    const types = schemaTypes(sub);
    if (types.length === 0) continue; // a property of no declared type admits every type
    for (const s of SAMPLES) {
      if (admits(types, s.type) || (s.type === "number" && types.includes("integer"))) continue;
      // a string where an array or an object goes is spec/bounds.ts's
      if (s.type === "string" && (types.includes("array") || types.includes("object"))) continue;
      out.push({
        operationId: op.operationId,
        field,
        keyword: "type",
        label: `${field} as ${s.label} (${types.join(" or ")} expected)`,
        body: withValue(base, field, s.value),
        valid: false,
        derived: true,
      });
    }
    if (types.includes("object") && sub.properties) out.push(...wrongTypes(op, base, sub, field));
    if (types.includes("array")) {
      const item = Array.isArray(base[name]) && (base[name] as unknown[]).length ? (base[name] as unknown[])[0] : "a";
      if (sub.minItems !== undefined && sub.minItems > 0)
        out.push(itemsCase(op, base, field, "minItems", sub.minItems - 1, item));
      if (sub.maxItems !== undefined) out.push(itemsCase(op, base, field, "maxItems", sub.maxItems + 1, item));
    }
  }
  return out;
}

function itemsCase(
  op: OperationSpec,
  base: unknown,
  field: string,
  keyword: string,
  n: number,
  item: unknown,
): RefusalCase {
  return {
    derived: true,
    operationId: op.operationId,
    field,
    keyword,
    label: `${field} with ${n} items`,
    body: withValue(
      base,
      field,
      Array.from({ length: n }, () => item),
    ),
    valid: false,
  };
}

/** Whether the contract refuses the body naming the case's field and keyword (what the target is judged on). */
function refusedAsSaid(contract: Contract, c: BoundCase): boolean {
  const r = contract.validators.checkBody(c.operationId, c.body);
  if (r.ok || !("errors" in r)) return false;
  const errors = (r.errors ?? []) as Array<{ field?: string; code?: string }>;
  return errors.some((e) => e.field === c.field && e.code === c.keyword);
}

/** Every derived refusal of every operation with a request object, for the contract's active profile. */
export function schemaRefusals(contract: Contract): RefusalCase[] {
  const out: RefusalCase[] = [];
  for (const op of contract.contractOperations) {
    const single = objectBranch(op);
    if (!single) continue;
    const base = baseBody(op);
    const cases = [...foreignFields(contract, op, base), ...wrongTypes(op, base, single, "")];
    // an array where only an object goes (no batch form): the body's own type
    if (!arrayBranch(op))
      cases.push({
        operationId: op.operationId,
        field: "",
        keyword: "type",
        label: "a batch (an array) where only an object goes",
        body: [base],
        valid: false,
        derived: true,
      });
    out.push(...cases.filter((c) => refusedAsSaid(contract, c)));
  }
  return out;
}
