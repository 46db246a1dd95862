// The peer comparison's outputs: a terminal table with the ratios, compare.json with every figure (each
// target's last round in full) and compare.html with the charts.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PAGE_STYLE } from "../report/report-html.ts";
import { barChart, esc } from "../report/svg-charts.ts";
import type { CompareResult } from "./run-compare.ts";

export function renderCompare(r: CompareResult): string {
  const c = r.comparison;
  return [
    `scenario ${c.scenario}, closed loop, ${r.connections} connections, median of ${c.rounds} alternating rounds of ${r.durationSeconds} s, loopback`,
    "",
    "| target | answers/s | p50 ms | p99 ms | unexpected |",
    "|---|---|---|---|---|",
    ...c.figures.map((f) => `| ${f.target} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.unexpected} |`),
    "",
    Object.entries(c.ratios)
      .map(([k, v]) => `${k} = ${v}×`)
      .join("; "),
  ].join("\n");
}

function compareHtml(r: CompareResult): string {
  const c = r.comparison;
  const groups = (pick: (f: (typeof c.figures)[number]) => number) =>
    c.figures.map((f) => ({ category: f.target, values: [pick(f)] }));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plumbline load compare: ${esc(c.scenario)}</title><style>${PAGE_STYLE}</style></head><body>
<h1>plumbline load compare: ${esc(c.scenario)}</h1>
<p class="meta">closed loop, ${r.connections} connections, median of ${c.rounds} alternating rounds of ${r.durationSeconds} s, loopback · ${esc(r.at)}</p>
<div class="charts">${barChart({ name: "peer-throughput", title: "Throughput", yLabel: "answers / s", seriesNames: ["answers/s"], groups: groups((f) => f.rps) })}
${barChart({ name: "peer-latency", title: "Latency", yLabel: "ms", seriesNames: ["p50", "p99"], groups: c.figures.map((f) => ({ category: f.target, values: [f.p50 ?? 0, f.p99 ?? 0] })) })}</div>
<h2>Figures</h2><table><tr><th>target</th><th>answers/s</th><th>p50 ms</th><th>p99 ms</th><th>unexpected statuses</th></tr>${c.figures
    .map(
      (f) =>
        `<tr><td>${esc(f.target)}</td><td class="num">${f.rps}</td><td class="num">${f.p50}</td><td class="num">${f.p99}</td><td class="num">${f.unexpected}</td></tr>`,
    )
    .join("")}</table>
<h2>Ratios</h2><table>${Object.entries(c.ratios)
    .map(([k, v]) => `<tr><td>${esc(k)}</td><td class="num">${v}×</td></tr>`)
    .join("")}</table>
<p class="meta">Prism answers the document's examples and checks only that a credential is present, so its statuses differ from the contract's for unpaid requests: "unexpected" counts them.</p>
</body></html>
`;
}

export function writeCompare(r: CompareResult, dir: string): { json: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, "compare.json");
  const html = join(dir, "compare.html");
  writeFileSync(json, `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(html, compareHtml(r));
  return { json, html };
}
