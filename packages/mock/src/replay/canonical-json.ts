// Canonical JSON for matching request bodies (issue 28, replay): object keys sorted, no whitespace, so two bodies
// that differ only in key order or spacing match. Arrays keep their order (a batch's entries are answered in order).
// Built as text, never as objects: a key such as `__proto__` stays a key.
import { REDACTED } from "@plumbline-kit/contract/secrets";

/** The canonical text of a JSON value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(",")}}`;
}

/** The value a recording wrote in place of a secret (HAR conventions: "Redaction"; spec/secrets.ts). */
export { REDACTED };

/** Whether a recorded value holds a redacted secret anywhere. */
export function hasRedacted(value: unknown): boolean {
  if (value === REDACTED) return true;
  if (value === null || typeof value !== "object") return false;
  return Object.values(value).some(hasRedacted);
}

/**
 * Whether a request's value matches a recorded one: equal as canonical JSON, except that a recorded `[REDACTED]`
 * matches any value (the secret the client sends is not in the recording, and need not be the one recorded).
 */
export function matchesRecorded(recorded: unknown, value: unknown): boolean {
  if (recorded === REDACTED) return value !== undefined;
  if (recorded === null || typeof recorded !== "object" || value === null || typeof value !== "object")
    return recorded === value;
  if (Array.isArray(recorded)) {
    return (
      Array.isArray(value) && recorded.length === value.length && recorded.every((r, i) => matchesRecorded(r, value[i]))
    );
  }
  if (Array.isArray(value)) return false;
  const rk = Object.keys(recorded).filter((k) => (recorded as Record<string, unknown>)[k] !== undefined);
  const vk = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  if (rk.length !== vk.length) return false;
  return rk.every(
    (k) =>
      Object.hasOwn(value, k) &&
      matchesRecorded((recorded as Record<string, unknown>)[k], (value as Record<string, unknown>)[k]),
  );
}
