// The text summary a run ends with (the CLI prints it): the verdict and counts, then every warning with its reason
// and first findings, since a warning does not fail the run and would otherwise scroll by unread.

import { plural } from "@plumbline-kit/contract/report/plural";
import { tallyText, unmetLines } from "../skip-reasons.ts";
import type { ConformanceResult } from "../types.ts";

/** Findings shown per warning; the rest are in the JSON record. */
const SHOWN = 3;

export function textSummary(result: ConformanceResult): string {
  const s = result.summary;
  const skips = result.skips ?? [];
  const byKind = skips.length ? ` (${tallyText(skips)})` : "";
  const lines = [
    `${result.exitCode === 0 ? "PASSED" : "FAILED"}: ${s.passed} passed, ${s.failed} failed, ${plural(s.warning, "warning")}, ${s.skipped} skipped${byKind} in ${(result.durationMs / 1000).toFixed(1)} s; ${result.creditsSpent === undefined ? "credits spent unknown (the balance did not read)" : `${plural(result.creditsSpent, "credit")} spent`}`,
  ];
  // every kind of skip with its reason: a skip never scrolls by unread (issue 27)
  for (const t of skips) {
    const allowed = !t.precondition
      ? ""
      : t.allowed
        ? ` (missing precondition, allowed: ${t.allowedBy})`
        : " (missing precondition)";
    lines.push(`skipped ${t.count} ${t.kind}${allowed}: ${t.reason}`);
  }
  lines.push(...unmetLines(skips).map((l) => `FAILED ${l}`));
  for (const c of result.checks.filter((x) => x.status === "warning")) {
    lines.push(`warning ${c.id}: ${c.reason ?? c.title}`);
    for (const f of c.failures.slice(0, SHOWN)) {
      const ea = f.expected !== undefined ? ` (expected ${f.expected}, got ${f.actual ?? "?"})` : "";
      lines.push(`  - ${f.message}${ea} [exchanges ${f.exchanges.join(", ")}]`);
    }
    if (c.failures.length > SHOWN) lines.push(`  - ${c.failures.length - SHOWN} more in the JSON record`);
  }
  return lines.join("\n");
}
