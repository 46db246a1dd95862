// The one record of a check's result that every client's reports read (issue 35): a conformance check, a proxy
// rule on an operation, a fuzz property, a load threshold. The JUnit file of each tool is written from these
// records (junitCase, recordSuites), the gate keeps its stages' cases as them (gate.json), and a tool with more to
// say (a conformance check's exchanges, a proxy rule's examples) adapts its own result to one. Self-contained: no
// import outside spec/.
import type { JunitCase, JunitSuite } from "./junit.ts";

export type CheckStatus = "passed" | "failed" | "skipped" | "warning";

export interface CheckRecord {
  /** stable: the check id, the registry rule, the fuzz property, the load threshold */
  id: string;
  /** what it is shown under: `conformance.batch`, `proxy.search`, `fuzz.property`, `load.threshold` (JUnit's classname) */
  group: string;
  status: CheckStatus;
  /** one line: what failed first, why it was skipped, or the warning */
  message?: string;
  /** the interface section or decision (D-…) it enforces */
  section?: string;
  severity?: string;
  expected?: string;
  actual?: string;
  /** a curl command reproducing the request at fault */
  curl?: string;
  durationMs?: number;
  /** the contract operation it concerns, when one */
  operation?: string;
  /** every finding, one a line (a failure's whole text) */
  details?: string;
  /** for people: what the check is, its notes (JUnit's system-out) */
  output?: string;
}

const firstLine = (s: string) => s.split("\n").find((l) => l.trim() !== "") ?? s;

/** A record as a JUnit testcase: failed is a failure, skipped skipped, a warning a passing case saying why. */
export function junitCase(r: CheckRecord): JunitCase {
  const message = r.message ?? (r.status === "failed" ? "failed" : r.status);
  // the details say every finding when given (the first one's expected and actual among them)
  const found = [
    r.details ?? (r.expected !== undefined ? `expected ${r.expected}, got ${r.actual ?? "?"}` : ""),
    r.curl && !(r.details ?? "").includes(r.curl) ? `curl: ${r.curl}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const output = [r.output ?? "", r.status === "warning" ? `WARNING: ${message}${found ? `\n${found}` : ""}` : ""]
    .filter(Boolean)
    .join("\n");
  return {
    classname: r.group,
    name: r.id,
    ...(r.durationMs !== undefined ? { seconds: r.durationMs / 1000 } : {}),
    ...(r.status === "failed"
      ? {
          failure: {
            message: firstLine(message).slice(0, 300),
            ...(r.severity ? { type: r.severity } : {}),
            text: found || message,
          },
        }
      : {}),
    ...(r.status === "skipped" ? { skipped: message } : {}),
    ...(output ? { output } : {}),
  };
}

/** Records as JUnit suites, one per group in the order first met. */
export function recordSuites(records: CheckRecord[], o: { timestamp?: string } = {}): JunitSuite[] {
  const groups = new Map<string, CheckRecord[]>();
  for (const r of records) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  return [...groups].map(([name, list]) => ({
    name,
    ...(o.timestamp ? { timestamp: o.timestamp } : {}),
    cases: list.map(junitCase),
  }));
}
