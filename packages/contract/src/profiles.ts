// Bound profiles (D-bound-sets): the primary set is the document itself; `alt-bounds` is the second set the
// interface publishes for search (interface-spec "Limits" 2), applied as overrides on component schemas.
import type { OpenApiDocument } from "./document.ts";

/** The document's bound sets (x-bound-profiles; a test checks the two agree), as a command line offers them. */
export const PROFILE_NAMES = ["primary", "alt-bounds"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

interface Override {
  schema: string;
  property: string;
  set: Record<string, unknown>;
}
interface ProfileDef {
  description: string;
  overrides: Override[];
}

export function profileNames(doc: OpenApiDocument): string[] {
  return Object.keys((doc["x-bound-profiles"] ?? {}) as Record<string, ProfileDef>);
}

/** A copy of the raw document with the profile's overrides applied (before dereferencing). */
export function applyProfile(doc: OpenApiDocument, profile: string): OpenApiDocument {
  const profiles = (doc["x-bound-profiles"] ?? {}) as Record<string, ProfileDef>;
  const def = profiles[profile];
  if (!def) {
    throw new Error(`unknown bound profile "${profile}" (known: ${Object.keys(profiles).join(", ")})`);
  }
  const copy = structuredClone(doc);
  const schemas = (copy.components?.schemas ?? {}) as Record<string, { properties?: Record<string, object> }>;
  for (const o of def.overrides) {
    const prop = schemas[o.schema]?.properties?.[o.property];
    if (!prop) throw new Error(`profile ${profile}: no property ${o.schema}.${o.property}`);
    Object.assign(prop, o.set);
  }
  return copy;
}
