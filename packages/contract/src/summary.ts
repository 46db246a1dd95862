// The spec summary `npm start` prints for now: operations, auth, prices, statuses, decisions, profiles.
import type { Contract } from "./contract.ts";

export function renderSummary(c: Contract): string {
  const rows = c.operations.map((o) => {
    const price = o.pricing ? `${o.pricing.credits} cr / ${o.pricing.price} ${o.pricing.protocol}` : "free";
    const batch = o.batchMax ? ` batch<=${o.batchMax}` : "";
    return [`${o.method.toUpperCase()} ${o.path}`, o.operationId, o.auth, price + batch, o.statuses.join(" ")];
  });
  const head = ["operation", "operationId", "auth", "price", "statuses"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const profiles = Object.keys((c.raw["x-bound-profiles"] ?? {}) as object);
  return [
    `${c.document.info.title} ${c.version} (OpenAPI ${c.document.openapi}), profile ${c.profile}: valid`,
    `${c.contractOperations.length} contract operations, ${c.operations.length - c.contractOperations.length} discovery documents`,
    "",
    fmt(head),
    fmt(widths.map((w) => "-".repeat(w))),
    ...rows.map(fmt),
    "",
    `decisions: ${c.decisions.length} (spec/DECISIONS.md)`,
    `bound profiles: ${profiles.join(", ")}`,
    `rate limits: ${c.rateLimits.perAccount}/${c.rateLimits.windowSeconds}s per account, ${Object.entries(
      c.rateLimits.perOperation,
    )
      .map(([k, v]) => `${k} ${v}/${c.rateLimits.windowSeconds}s`)
      .join(", ")}`,
  ].join("\n");
}
