// The decisions page: every "not shown" of the interface resolved in `x-decisions` of the document, rendered to
// spec/DECISIONS.md with the error catalogue (a test fails when the committed page drifts).
import type { OpenApiDocument } from "./document.ts";
import { ERROR_CATALOGUE, STATUS_LABELS } from "./error-catalogue.ts";

export interface Decision {
  id: string;
  topic: string;
  contract: string;
  decision: string;
  /** what was observed that led to the decision (a real client's behaviour, an issue), when recorded */
  evidence?: string;
  reason: string;
}

export function readDecisions(doc: OpenApiDocument): Decision[] {
  const all = (doc["x-decisions"] ?? {}) as Record<string, Omit<Decision, "id">>;
  return Object.entries(all).map(([id, d]) => ({ id, ...d }));
}

/** Every `x-decision` reference in the document, with the JSON Pointer where it stands. */
export function decisionReferences(doc: unknown, pointer = ""): Array<{ id: string; at: string }> {
  if (doc === null || typeof doc !== "object") return [];
  const out: Array<{ id: string; at: string }> = [];
  for (const [k, v] of Object.entries(doc)) {
    if (k === "x-decision" && typeof v === "string") out.push({ id: v, at: pointer || "/" });
    else out.push(...decisionReferences(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  }
  return out;
}

const oneLine = (s: string) => s.trim().replace(/\s*\n\s*/g, " ");

export function renderDecisionsPage(doc: OpenApiDocument): string {
  const version = doc["x-contract-version"];
  // the seed's page; another version's (D-live-version) names its own document and command
  const lines =
    version === undefined
      ? [
          '# Decisions: what plumbline fills where the interface says "not shown"',
          "",
          "Generated from `x-decisions` in `openapi.yaml` and `error-catalogue.ts` (this folder) by",
          "`plumbline spec decisions --write`; do not edit by hand. Each entry is a **decision**, not contract text:",
          "a conformance check that rests on one reports it as an assumption.",
          "",
        ]
      : [
          `# Decisions of the \`${version}\` contract: what plumbline fills where its documents say nothing`,
          "",
          "Generated from `x-decisions` in `openapi.yaml` (this folder) and `../error-catalogue.ts` by",
          `\`plumbline spec decisions --contract ${version} --write\`; do not edit by hand. Each entry is a **decision**,`,
          "not contract text: a conformance check that rests on one reports it as an assumption.",
          "",
        ];
  for (const d of readDecisions(doc)) {
    lines.push(`## ${d.id}: ${d.topic}`, "", `- **Contract:** ${oneLine(d.contract)}`);
    lines.push(`- **Decision:** ${oneLine(d.decision)}`);
    if (d.evidence) lines.push(`- **Evidence:** ${oneLine(d.evidence)}`);
    lines.push(`- **Why:** ${oneLine(d.reason)}`, "");
  }
  lines.push("## Error catalogue", "", "| code | status | error | when |", "|---|---|---|---|");
  for (const [code, e] of Object.entries(ERROR_CATALOGUE)) {
    lines.push(`| \`${code}\` | ${e.status} | ${STATUS_LABELS[e.status]} | ${e.when} |`);
  }
  lines.push("");
  return lines.join("\n");
}
