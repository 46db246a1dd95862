// A request schema as a readable field table: one row per field (nested objects indented), with its type,
// whether it is required, its bounds, enum, default and the decision that fixes it.
import type { JsonSchema } from "@plumbline-kit/contract";
import { escapeHtml, inline, table } from "./docs-html.ts";

export interface FieldRow {
  name: string;
  depth: number;
  type: string;
  required: boolean;
  constraints: string[];
  description: string;
}

type Ext = JsonSchema & Record<string, unknown>;

function types(s: JsonSchema): string[] {
  if (s.type === undefined) return [];
  return Array.isArray(s.type) ? s.type : [s.type];
}

function range(min: number | undefined, max: number | undefined, prefix = "", unit = ""): string | null {
  if (min === undefined && max === undefined) return null;
  if (min !== undefined && max !== undefined) return `${prefix}${min}..${max}${unit}`;
  return min !== undefined ? `${prefix}≥ ${min}${unit}` : `${prefix}≤ ${max}${unit}`;
}

const show = (v: unknown) => (typeof v === "string" && v !== "" ? v : JSON.stringify(v));

/** Properties and required names of an object schema, `allOf` parts merged. */
function objectParts(s: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  const properties = { ...(s.properties ?? {}) };
  const required = [...(s.required ?? [])];
  for (const part of s.allOf ?? []) {
    const inner = objectParts(part);
    Object.assign(properties, inner.properties);
    required.push(...inner.required);
  }
  return { properties, required };
}

export function typeLabel(s: JsonSchema): string {
  const branches = s.oneOf ?? s.anyOf;
  if (types(s).length === 0 && branches) return branches.map(typeLabel).join(" or ");
  const ts = types(s).length ? types(s) : s.const !== undefined ? [typeof s.const] : ["any"];
  return ts
    .map((t) => {
      if (t === "array") return s.items ? `array of ${typeLabel(s.items)}` : "array";
      return s.format && t === "string" ? `${t} (${s.format})` : t;
    })
    .join(" or ");
}

export function constraints(schema: JsonSchema): string[] {
  const s = schema as Ext;
  const out: string[] = [];
  if (s.enum) out.push(`one of: ${s.enum.map((v) => (v === "" ? '"" (empty)' : show(v))).join(", ")}`);
  if (s.const !== undefined) out.push(`always ${show(s.const)}`);
  const bounds = [
    range(s.minimum, s.maximum),
    range(s.minLength, s.maxLength, "length "),
    range(s.minItems, s.maxItems, "", " items"),
  ];
  out.push(...bounds.filter((b): b is string => b !== null));
  if (typeof s.exclusiveMinimum === "number") out.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === "number") out.push(`< ${s.exclusiveMaximum}`);
  if (s.pattern) out.push(`pattern ${s.pattern}`);
  if (Array.isArray(s["x-accepted-values"])) out.push(`accepted: ${s["x-accepted-values"].map(show).join(", ")}`);
  if (s.default !== undefined) out.push(`default ${show(s.default)}`);
  if (s["x-default"] !== undefined) out.push(`default ${show(s["x-default"])}`);
  if (s["x-cap"] !== undefined) out.push(`capped at ${show(s["x-cap"])}`);
  if (s.additionalProperties === false && s.properties) out.push("no other fields");
  return out;
}

/** The fields of an object schema, depth-first; array items that are objects are listed under their array. */
export function fieldRows(schema: JsonSchema, depth = 0): FieldRow[] {
  const { properties, required } = objectParts(schema);
  const rows: FieldRow[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const s = raw as Ext;
    const decision = typeof s["x-decision"] === "string" ? s["x-decision"] : null;
    let description = s.description ?? "";
    if (decision && !description.includes(decision)) description = `${description} (${decision})`.trim();
    rows.push({
      name,
      depth,
      type: typeLabel(s),
      required: required.includes(name),
      constraints: constraints(s),
      description,
    });
    const nested = types(s).includes("array") && s.items ? s.items : s;
    if (Object.keys(objectParts(nested).properties).length) rows.push(...fieldRows(nested, depth + 1));
  }
  return rows;
}

/** How a body is shaped: "an object", or the single-or-batch `oneOf` as "an object, or an array of 1..50 objects". */
export function bodyShape(schema: JsonSchema): { shape: string; object: JsonSchema | null } {
  const branches = schema.oneOf ?? [schema];
  const object = branches.find((b) => types(b).includes("object") || b.properties) ?? null;
  const array = branches.find((b) => types(b).includes("array"));
  if (array && object) {
    const count = range(array.minItems, array.maxItems) ?? "any number of";
    return { shape: `an object, or an array of ${count} objects (a batch, one result per entry)`, object };
  }
  if (array) return { shape: `an array of ${typeLabel(array.items ?? {})}`, object: array.items ?? null };
  return { shape: object ? "an object" : typeLabel(schema), object };
}

export function renderFieldTable(rows: FieldRow[], decisionIds: ReadonlySet<string>): string {
  if (rows.length === 0) return "";
  return table(
    ["Field", "Type", "Required", "Bounds, values, default", "Description"],
    rows.map((r) => [
      `<td class="field" style="padding-left: ${0.5 + r.depth * 1.5}rem">${r.depth ? '<span class="nest">↳</span> ' : ""}<code>${escapeHtml(r.name)}</code></td>`,
      `<td class="type">${escapeHtml(r.type)}</td>`,
      `<td>${r.required ? '<strong class="req">required</strong>' : "optional"}</td>`,
      `<td class="bounds">${r.constraints.map((c) => `<span>${escapeHtml(c)}</span>`).join("<br>")}</td>`,
      `<td>${inline(r.description, decisionIds)}</td>`,
    ]),
    "fields",
  );
}
