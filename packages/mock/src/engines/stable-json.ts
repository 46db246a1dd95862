// A canonical JSON text (object keys sorted at every level) so that two requests with the same fields in another
// order seed the same synthetic answer: determinism is promised per seed + request, not per byte order.

export function stableJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? "null";
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}
