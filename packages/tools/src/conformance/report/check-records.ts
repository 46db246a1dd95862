// A run's checks as the one report record (contract/src/report/check-record.ts) that the JUnit file, the JSON
// record's `records` and the gate read: the first failure's message, expected and actual, a curl command of its
// first exchange, every finding a line. The HTML page and the JSON's `checks` keep the whole result (exchanges,
// facts): the suite has more to say than a record holds.
import type { CheckRecord } from "@plumbline-kit/contract/report/check-record";
import { curlCommand } from "@plumbline-kit/contract/report/curl";
import { skipKindOf } from "../skip-reasons.ts";
import { basisLabel, type CheckResult, type ConformanceResult, type Exchange } from "../types.ts";

const family = (id: string) => id.split("-")[0];

export function checkRecord(c: CheckResult, byId: Map<number, Exchange> = new Map()): CheckRecord {
  const first = c.failures[0];
  const ex = first?.exchanges.map((id) => byId.get(id)).find((e) => e !== undefined);
  const lines = c.failures.map(
    (f) =>
      `- ${f.message}${f.expected ? ` (expected ${f.expected}, got ${f.actual ?? "?"})` : ""} [exchanges ${f.exchanges.join(", ")}]`,
  );
  const message =
    c.status === "failed"
      ? (first?.message ?? c.reason ?? "failed")
      : c.status === "skipped"
        ? `[${skipKindOf(c)}] ${c.reason ?? "skipped"}`
        : c.status === "warning"
          ? c.reason
          : undefined;
  const details = [...(c.status === "failed" && c.reason ? [c.reason] : []), ...lines].join("\n");
  return {
    id: c.id,
    group: `conformance.${family(c.id)}`,
    status: c.status,
    ...(message !== undefined ? { message } : {}),
    section: `${c.section}; ${basisLabel(c.basis)}`,
    severity: c.severity,
    ...(first?.expected !== undefined ? { expected: first.expected, actual: first.actual ?? "?" } : {}),
    ...(ex
      ? {
          curl: curlCommand({
            method: ex.request.method,
            url: ex.request.url,
            headers: ex.request.headers,
            body: ex.request.body,
          }),
          ...(ex.operationId ? { operation: ex.operationId } : {}),
        }
      : {}),
    durationMs: c.durationMs,
    ...(details ? { details } : {}),
    output: [
      `${c.title}\nsection: ${c.section}\nbasis: ${basisLabel(c.basis)}\nseverity: ${c.severity}`,
      ...c.notes,
    ].join("\n"),
  };
}

/** Every check of a run as a record, in the run's order. */
export function checkRecords(r: ConformanceResult): CheckRecord[] {
  const byId = new Map(r.exchanges.map((e) => [e.id, e]));
  return r.checks.map((c) => checkRecord(c, byId));
}
