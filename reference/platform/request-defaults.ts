// Values the contract leaves to decisions, read from the document's x- extensions so nobody re-types them.
import type { Contract, JsonSchema } from "../../spec/index.ts";

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
