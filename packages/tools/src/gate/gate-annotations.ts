// `plumbline gate --reporter github`: one GitHub Actions annotation per failing case of a stage (a conformance
// check, a fuzz property, a load threshold: the cases of its JUnit file, with their failure's first line), one per
// stage that could not run, one when the gate could not start. The shared writer is spec/report/github.ts.
import type { Annotation } from "@plumbline-kit/contract/report/github";
import type { GateResult } from "./gate-types.ts";

export function gateAnnotations(r: GateResult): Annotation[] {
  if (r.error) return [{ level: "error", title: "plumbline gate could not run", message: r.error }];
  const out: Annotation[] = [];
  for (const s of r.stages) {
    if (s.exitCode === 2)
      out.push({ level: "error", title: `gate ${s.stage} could not run`, message: s.error ?? s.summary });
    for (const c of s.cases) {
      if (c.status !== "failed") continue;
      const [first, ...rest] = (c.details ?? c.message ?? "").split("\n").filter((l) => l.trim() !== "");
      const more = rest.length > 0 ? ` (and ${rest.length} more in the report)` : "";
      out.push({ level: "error", title: `gate ${s.stage}: ${c.id}`, message: `${first ?? c.id}${more}` });
    }
  }
  return out;
}
