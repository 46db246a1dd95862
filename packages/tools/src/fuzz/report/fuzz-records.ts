// A fuzz run as the one report record every client writes (contract/src/report/check-record.ts): one per property
// (failed with its shrunk case's findings and the curl that reproduces it) and the health check after the run.
// fuzz.json carries them as `records`, and the gate's fuzz stage is made of them; report.html keeps the whole
// property report (counterexample, counts): the fuzzer has more to say than a record holds.
import type { CheckRecord } from "@plumbline-kit/contract/report/check-record";
import type { FuzzReport } from "./fuzz-report.ts";

export function fuzzRecords(r: Pick<FuzzReport, "properties" | "health">): CheckRecord[] {
  const out = r.properties.map((p): CheckRecord => {
    const base = { id: p.property, group: "fuzz.property", durationMs: Math.round(p.seconds * 1000) };
    if (p.passed) return { ...base, status: "passed" };
    const f = p.failure;
    const lines = f?.failures.map((x) => `${x.check}: ${x.message}`) ?? [];
    return {
      ...base,
      status: "failed",
      message: lines[0] ?? f?.error ?? "failed",
      ...(lines.length || f?.error ? { details: (lines.join("\n") || f?.error) ?? "" } : {}),
      ...(f?.curl[0] ? { curl: f.curl[0] } : {}),
      ...(f?.case ? { operation: f.case.operationId } : {}),
    };
  });
  if (r.health)
    out.push({
      id: "healthy after the run",
      group: "fuzz.health",
      status: r.health.passed ? "passed" : "failed",
      durationMs: 0,
      ...(r.health.passed ? {} : { message: r.health.message }),
    });
  return out;
}
