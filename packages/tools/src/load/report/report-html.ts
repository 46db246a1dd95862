// The HTML page of a load run: verdict first, then the charts people look at (throughput and latency over
// time, latency per operation, deepcrawl time to completed), then every figure as tables. Self-contained.

import { plural } from "@plumbline-kit/contract/report/plural";
import { formatActual } from "../threshold-evaluate.ts";
import type { LoadReport, OperationStats } from "../types.ts";
import { barChart, esc, lineChart } from "./svg-charts.ts";

export const PAGE_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#111;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:600}.pass{background:#059669}.fail{background:#dc2626}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;font-variant-numeric:tabular-nums}
th{background:#f6f6f6}td.num{text-align:right}.failed{color:#dc2626;font-weight:600}.skipped{color:#777}.passed{color:#059669}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(460px,1fr));gap:12px}
svg.chart{width:100%;height:auto;border:1px solid #eee;border-radius:4px;background:#fff}
.grid{stroke:#eee}.axis{stroke:#999}.tick,.legend{font-size:11px;fill:#555}.label{font-size:12px;fill:#333}.chart-title{font-size:13px;font-weight:600}
.meta{color:#555}code{background:#f3f3f3;padding:0 3px;border-radius:3px}`;

const ms = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${v}`);
const pct = (v: number) => `${Math.round(v * 10000) / 100}%`;

function opRow(name: string, s: OperationStats): string {
  const l = s.latency;
  const statuses = Object.entries(s.statuses)
    .map(([k, v]) => `${k}×${v}`)
    .join(" ");
  return `<tr><td>${esc(name)}</td><td class="num">${s.requests}</td><td class="num">${s.rps}</td><td class="num">${ms(l?.avg)}</td><td class="num">${ms(l?.med)}</td><td class="num">${ms(l?.p95)}</td><td class="num">${ms(l?.p99)}</td><td class="num">${ms(l?.max)}</td><td class="num">${pct(s.errorRate)}</td><td>${esc(statuses)}${s.failures ? ` no answer×${s.failures}` : ""}</td></tr>`;
}

function charts(r: LoadReport): string {
  const t = r.timeline;
  const out = [
    lineChart({
      name: "throughput",
      title: "Throughput over time",
      xLabel: "second of the run",
      yLabel: "answers / s",
      series: [
        { name: "answers", points: t.map((p) => [p.second + 1, p.requests]) },
        { name: "errors", points: t.map((p) => [p.second + 1, p.errors]) },
      ],
    }),
    lineChart({
      name: "latency-over-time",
      title: `Latency percentiles over time${r.mode === "open" ? " (from scheduled arrival)" : ""}`,
      xLabel: "second of the run",
      yLabel: "ms",
      series: (["p50", "p90", "p99"] as const).map((k) => ({ name: k, points: t.map((p) => [p.second + 1, p[k]]) })),
    }),
  ];
  const ops = Object.entries(r.operations).filter(([, s]) => s.latency);
  out.push(
    barChart({
      name: "latency-by-operation",
      title: "Latency percentiles by operation",
      yLabel: "ms",
      seriesNames: ["p50", "p95", "p99"],
      groups: [["overall", r.overall] as const, ...ops].map(([name, s]) => ({
        category: name,
        values: s.latency ? [s.latency.med, s.latency.p95, s.latency.p99] : [0, 0, 0],
      })),
    }),
  );
  for (const [name, f] of Object.entries(r.flows)) {
    const l = f.timeToCompleted;
    out.push(
      barChart({
        name: `flow-${name}`,
        title: `${name}: time from submit to completed`,
        yLabel: "ms",
        seriesNames: ["min", "p50", "p90", "p99", "max"],
        groups: [
          {
            category: `${f.completed} of ${f.started} flows`,
            values: l ? [l.min, l.med, l.p90, l.p99, l.max] : [0, 0, 0, 0, 0],
          },
        ],
      }),
    );
  }
  return `<div class="charts">${out.join("\n")}</div>`;
}

export function htmlReport(r: LoadReport): string {
  const verdict = `<span class="verdict ${r.pass ? "pass" : "fail"}">${r.pass ? "PASS" : "FAIL"}</span>`;
  const shape =
    r.mode === "open"
      ? `open loop at ${r.rate} arrivals/s (at most ${r.connections} connections)`
      : `closed loop, ${r.connections} connections`;
  const thresholds = r.thresholds
    .map(
      (o) =>
        `<tr><td>${esc(o.key)}</td><td><code>${esc(o.expression)}</code></td><td class="num">${esc(formatActual(o))}</td><td class="${o.status}">${o.status}${o.note ? ` – ${esc(o.note)}` : ""}</td></tr>`,
    )
    .join("");
  const c = r.credits;
  const flows = Object.entries(r.flows)
    .map(
      ([n, f]) =>
        `<tr><td>${esc(n)}</td><td class="num">${f.started}</td><td class="num">${f.completed}</td><td class="num">${f.failed}</td><td class="num">${f.incomplete}</td><td class="num">${ms(f.timeToCompleted?.med)}</td><td class="num">${ms(f.timeToCompleted?.p95)}</td><td class="num">${ms(f.timeToCompleted?.max)}</td><td class="num">${f.pollsPerFlow}</td></tr>`,
    )
    .join("");
  const baseline = r.baseline
    ? `<h2>Against the baseline</h2><p class="meta">${esc(r.baseline.file)}: a regression is more than ${r.baseline.maxRegressionPercent}% worse (and, for latency, more than ${r.baseline.minDeltaMs} ms).</p><table><tr><th>key</th><th>metric</th><th>baseline</th><th>now</th><th>change</th><th></th></tr>${r.baseline.outcomes
        .map(
          (o) =>
            `<tr><td>${esc(o.key)}</td><td>${o.metric}</td><td class="num">${o.baseline}</td><td class="num">${o.current}</td><td class="num">${o.changePercent}%</td><td class="${o.regressed ? "failed" : "passed"}">${o.regressed ? "regressed" : "ok"}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plumbline load: ${esc(r.scenario.name)} ${r.pass ? "PASS" : "FAIL"}</title><style>${PAGE_STYLE}</style></head><body>
<h1>${verdict} plumbline load: ${esc(r.scenario.name)}</h1>
<p class="meta">${esc(r.target)}${r.fixture ? ` (fixture site ${esc(r.fixture)})` : ""} · ${shape} · ${r.durationSeconds} s · ${esc(r.startedAt)} · ${esc(r.scenario.description)}</p>
${r.breaches.length ? `<h2>What broke</h2><ul>${r.breaches.map((b) => `<li class="failed">${esc(b)}</li>`).join("")}</ul>` : ""}
<h2>Charts</h2>${charts(r)}
<h2>Thresholds</h2><table><tr><th>key</th><th>expression</th><th>actual</th><th>result</th></tr>${thresholds}</table>
<h2>Operations</h2><p class="meta">Latency in ms${r.mode === "open" ? ", measured from each request's scheduled arrival" : ""}. Errors: answers with a status the scenario did not expect, and requests never answered.</p>
<table><tr><th>operation</th><th>answers</th><th>per s</th><th>avg</th><th>p50</th><th>p95</th><th>p99</th><th>max</th><th>errors</th><th>statuses</th></tr>${opRow("overall", r.overall)}${Object.entries(
    r.operations,
  )
    .map(([n, s]) => opRow(n, s))
    .join("")}</table>
${r.serviceLatency ? `<p class="meta">Service latency (from the actual send): p50 ${r.serviceLatency.med} ms, p99 ${r.serviceLatency.p99} ms, max ${r.serviceLatency.max} ms.</p>` : ""}
${flows ? `<h2>Flows</h2><table><tr><th>flow</th><th>started</th><th>completed</th><th>failed</th><th>incomplete</th><th>p50 ms</th><th>p95 ms</th><th>max ms</th><th>polls/flow</th></tr>${flows}</table>` : ""}
<h2>Credit accounting</h2><p class="${c.checked ? (c.pass ? "passed" : "failed") : c.pass ? "skipped" : "failed"}">${esc(c.detail)}</p>
${r.creditCap ? `<p class="meta">Credit budget: at most ${plural(r.creditCap.cap, "credit")}; ${r.creditCap.heldBack} arrivals held back to stay within it.</p>` : ""}
${r.rateLimits ? `<h2>Rate limits</h2><p class="meta">${esc(r.rateLimits.detail)}.</p>${r.rateLimits.unjudged.length ? `<p>Not judged at that rate:</p><ul>${r.rateLimits.unjudged.map((u) => `<li>${esc(u)}</li>`).join("")}</ul>` : ""}` : ""}
${baseline}
</body></html>
`;
}
