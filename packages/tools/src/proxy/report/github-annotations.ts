// `plumbline proxy --reporter github`: one GitHub Actions annotation per operation and rule that saw violations
// (their count and the first one's message; the report has every example), an error when --fail-on counts the
// rule (violation: every rule; response: the rules of answers), a warning otherwise. The shared writer is
// spec/report/github.ts.
import type { Annotation } from "@plumbline-kit/contract/report/github";
import type { ProxyReport } from "./violation-report.ts";

export function proxyAnnotations(report: ProxyReport, failOn: "violation" | "response" | "never"): Annotation[] {
  const out: Annotation[] = [];
  for (const op of report.operations)
    for (const g of op.rules) {
      if (g.count === 0) continue;
      const counted = failOn === "violation" || (failOn === "response" && g.side === "response");
      const first = g.examples[0];
      const n = `${g.count} violation${g.count === 1 ? "" : "s"}`;
      out.push({
        level: counted ? "error" : "warning",
        title: `proxy ${g.rule} [${op.operationId}]`,
        message: `${n} of ${g.rule} (${g.title})${first ? `; first, exchange #${first.exchangeId}: ${first.message}` : ""}`,
      });
    }
  return out;
}
