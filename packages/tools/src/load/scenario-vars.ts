// "{{name}}" placeholders in scenario entries: values captured by setup steps, and `{{fixture}}`, the base URL of
// a fixture site (--fixture-url) that a target which really fetches pages (the reference) can reach. Scenario files
// stay data; the values are filled in before the contract checks the bodies.

export const FIXTURE_VAR = "fixture";

export type Filled<T> = { ok: true; value: T } | { ok: false; error: string };

export const FIXTURE_MISSING =
  "{{fixture}} is not set: this scenario needs a fixture site the target can fetch, --fixture-url URL (e.g. plumbline conform serve-fixtures)";

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

function fillString(text: string, vars: Record<string, string>, missing: Set<string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name in vars) return vars[name];
    missing.add(name);
    return whole;
  });
}

function fillValue(value: unknown, vars: Record<string, string>, missing: Set<string>): unknown {
  if (typeof value === "string") return fillString(value, vars, missing);
  if (Array.isArray(value)) return value.map((v) => fillValue(v, vars, missing));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillValue(v, vars, missing)]));
  return value;
}

function unset(names: Set<string>): string {
  if (names.has(FIXTURE_VAR)) return FIXTURE_MISSING;
  const list = [...names].map((n) => `{{${n}}}`).join(", ");
  return `${list} not set (no setup step captures ${names.size === 1 ? "it" : "them"})`;
}

/** Every string inside `value` (keys excepted) with its placeholders filled; an unknown name is an error. */
export function fillVars<T>(value: T, vars: Record<string, string>): Filled<T> {
  const missing = new Set<string>();
  const filled = fillValue(value, vars, missing) as T;
  return missing.size ? { ok: false, error: unset(missing) } : { ok: true, value: filled };
}

/** Whether a scenario (or any part of one) sends `{{fixture}}` somewhere. */
export const needsFixture = (value: unknown): boolean => JSON.stringify(value).includes(`{{${FIXTURE_VAR}}}`);

/** The fixture site's base URL as `{{fixture}}` gives it: http(s), no trailing slash, no query or fragment. */
export function fixtureBase(raw: string): Filled<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: `--fixture-url "${raw}" is not a URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, error: `--fixture-url must be http(s), not ${url.protocol}` };
  if (url.search || url.hash) return { ok: false, error: "--fixture-url takes a base URL without query or fragment" };
  return { ok: true, value: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}
