// JSON Pointer reads and writes on request bodies, creating a missing parent as the smallest value its schema
// accepts, so that setting one bad field adds exactly one violation.
import type { JsonSchema } from "@plumbline-kit/contract";
import { minimalValue } from "./schema-arbitrary.ts";

/** Marks a member to remove (a missing required field). */
export const DELETE = Symbol("delete");

export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function childSchema(schema: JsonSchema | undefined, token: string): JsonSchema | undefined {
  if (!schema) return undefined;
  if (schema.properties?.[token]) return schema.properties[token];
  if (/^\d+$/.test(token)) return schema.items;
  return undefined;
}

/** A copy of `body` with `value` at `pointer` (DELETE removes the member). */
export function setAt(body: unknown, schema: JsonSchema, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer);
  const copy = structuredClone(body) as Record<string, unknown>;
  let node = copy;
  let nodeSchema: JsonSchema | undefined = schema;
  for (const token of tokens.slice(0, -1)) {
    const sub = childSchema(nodeSchema, token);
    if (node[token] === null || typeof node[token] !== "object") node[token] = minimalValue(sub ?? { type: "object" });
    node = node[token] as Record<string, unknown>;
    nodeSchema = sub;
  }
  const last = tokens[tokens.length - 1];
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return copy;
}

/** Every value found at `pointer` (array indexes ignored) in the given examples. */
export function valuesAt(examples: unknown[], pointer: string): unknown[] {
  const tokens = pointerTokens(pointer).filter((t) => !/^\d+$/.test(t));
  const out: unknown[] = [];
  const visit = (v: unknown, i: number) => {
    if (Array.isArray(v)) {
      for (const e of v) visit(e, i);
      return;
    }
    if (i === tokens.length) {
      if (v !== undefined) out.push(v);
      return;
    }
    if (v !== null && typeof v === "object") visit((v as Record<string, unknown>)[tokens[i]], i + 1);
  };
  for (const e of examples) visit(e, 0);
  return out;
}
