// Values the contract leaves to decisions, read from the document's x- extensions so nobody re-types them.
import type { Contract, JsonSchema } from "@plumbline-kit/contract";

function property(contract: Contract, schema: string, name: string): JsonSchema {
  const s = (contract.document.components?.schemas?.[schema] ?? {}) as JsonSchema;
  return s.properties?.[name] ?? {};
}

/** How many trending items to return: x-default when absent, capped at x-cap (D-trending-platforms). */
export function trendingLimit(contract: Contract, request: { max_results?: number }): number {
  const p = property(contract, "TrendingRequest", "max_results");
  const wanted = request.max_results ?? Number(p["x-default"] ?? 10);
  return Math.min(wanted, Number(p["x-cap"] ?? wanted));
}

/** The trending platforms served (D-trending-platforms). */
export function trendingPlatforms(contract: Contract): string[] {
  return (property(contract, "TrendingRequest", "search_service")["x-accepted-values"] ?? []) as string[];
}

/** The search_service used when the field is omitted or empty (D-default-search-service). */
export function defaultSearchService(contract: Contract, schema: "SearchParameters" | "NewsParameters"): string {
  return String(property(contract, schema, "search_service")["x-default"]);
}

const echoFields = new WeakMap<Contract, Map<string, Array<[string, { default?: unknown }]>>>();

/**
 * searchParameters as search and news echo it (D-echo): the request's fields in the schema's order, each with the
 * value sent, and every omitted field whose schema declares a `default` at that default. Fields without one
 * (search_service, language, time_range) appear only when sent.
 */
export function echoedParameters<T extends object>(
  contract: Contract,
  schema: "SearchParameters" | "NewsParameters",
  request: T,
): T {
  let bySchema = echoFields.get(contract);
  if (!bySchema) {
    bySchema = new Map();
    echoFields.set(contract, bySchema);
  }
  let fields = bySchema.get(schema);
  if (!fields) {
    const s = (contract.document.components?.schemas?.[schema] ?? {}) as JsonSchema;
    fields = Object.entries(s.properties ?? {}) as Array<[string, { default?: unknown }]>;
    bySchema.set(schema, fields);
  }
  const sent = request as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, p] of fields) {
    if (name in sent) out[name] = structuredClone(sent[name]);
    else if (p.default !== undefined) out[name] = structuredClone(p.default);
  }
  // a field the schema does not name cannot pass validation; kept all the same, the echo never loses a field sent
  for (const [name, v] of Object.entries(sent)) if (!(name in out)) out[name] = structuredClone(v);
  return out as T;
}
