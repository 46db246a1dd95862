// The gate's HTML page: one line per stage with its verdict, time, credits and a link to the stage's own report.
import { xmlEscape } from "@plumbline-kit/contract/report/junit";
import { plural } from "@plumbline-kit/contract/report/plural";
import type { GateResult } from "./gate-types.ts";

const esc = xmlEscape;
const VERDICT = { 0: "passed", 1: "FAILED", 2: "could not run" } as const;

export function gatePage(r: GateResult): string {
  const rows = r.stages
    .map((s) => {
      const verdict = s.exitCode === null ? "not run" : VERDICT[s.exitCode];
      const link = s.report ? `<a href="${esc(s.report)}">report</a>` : "";
      return `<tr class="v${s.exitCode ?? "n"}"><td>${s.stage}</td><td>${verdict}</td><td>${s.seconds.toFixed(1)} s</td><td>${s.creditsSpent ?? "?"}</td><td>${esc(s.error ?? s.summary)}</td><td>${link}</td></tr>`;
    })
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plumbline gate: ${esc(r.target)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.4em .8em;border-bottom:1px solid #ddd;text-align:left}
.v0 td:nth-child(2){color:#176f2c}.v1 td:nth-child(2),.v2 td:nth-child(2){color:#b00020;font-weight:bold}</style></head>
<body><h1>plumbline gate: ${VERDICT[r.exitCode]}</h1>
<p>Target <code>${esc(r.target)}</code>, started ${esc(r.startedAt)}, ${r.seconds.toFixed(1)} s, ${r.creditsSpent === null ? "unknown credits" : plural(r.creditsSpent, "credit")} spent${r.budgetCredits === null ? "" : ` of a budget of ${r.budgetCredits}`}. JUnit: <a href="junit.xml">junit.xml</a>.</p>
<table><tr><th>stage</th><th>verdict</th><th>time</th><th>credits</th><th>summary</th><th></th></tr>
${rows}
</table></body></html>
`;
}
