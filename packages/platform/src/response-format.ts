// The schema inside an extract request's `response_format` (D-extract-response-format): either a plain JSON
// Schema or the OpenAI-style wrapper `{type:"json_schema", json_schema:{name?, strict?, schema}}` that older
// docs show. Real engines and the mock both unwrap here so they agree on what `results` must validate against.
import type { JsonSchema } from "@plumbline-kit/contract";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function asSchema(value: unknown): JsonSchema | null {
  if (value === true) return {};
  return isObject(value) ? (value as JsonSchema) : null;
}

/**
 * The JSON Schema `results` must validate against, or null when `rf` names none (absent, not an object,
 * `{type:"text"}`, a wrapper without a schema): the caller then returns the page's main facts.
 *
 * - `{type:"json_schema", json_schema:{schema}}` (Chat Completions) → `schema`
 * - `{type:"json_schema", schema}` (the flat Responses-API form) → `schema`
 * - `{type:"json_schema", json_schema:{type:"object", …}}` (the schema put directly in the wrapper) → it
 * - `{type:"json_object"}` → `{type:"object"}` (any object)
 * - anything else that is an object → itself, a plain JSON Schema
 */
export function unwrapResponseFormat(rf: unknown): JsonSchema | null {
  if (!isObject(rf)) return null;
  if (rf.type === "json_object") return { type: "object" };
  if (rf.type === "text") return null;
  if (rf.type !== "json_schema") return rf as JsonSchema;
  const inner = rf.json_schema;
  if (isObject(inner)) {
    if ("schema" in inner) return asSchema(inner.schema);
    const keywords = ["type", "properties", "$ref", "anyOf", "oneOf", "allOf", "items", "enum", "const"];
    return keywords.some((k) => k in inner) ? (inner as JsonSchema) : null;
  }
  return "schema" in rf ? asSchema(rf.schema) : null;
}
