// A small self-contained HTML page of a fuzz run: verdict, throughput, one section per property with the shrunk
// counterexample, its failures and the curl commands that reproduce it. No script, no external asset.
import type { CheckRecord } from "@plumbline-kit/contract/report/check-record";
import { xmlEscape } from "@plumbline-kit/contract/report/junit";
import { plural } from "@plumbline-kit/contract/report/plural";
import { fuzzRecords } from "./fuzz-records.ts";
import type { FailureReport, FuzzReport, PropertyReport } from "./fuzz-report.ts";

const esc = (v: unknown) => xmlEscape(String(v));

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
pre{background:#f5f5f7;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
.pass{color:#137333}.fail{color:#b3261e}.muted{color:#666}code{font-size:.95em}`;

function counts(m: Record<string, number>): string {
  const e = Object.entries(m);
  return e.length ? e.map(([k, v]) => `${esc(k)}: ${v}`).join(", ") : "—";
}

function failureHtml(f: FailureReport): string {
  const what = f.case
    ? `<p>Shrunk request (${esc(f.case.operationId)}${f.case.violation ? `, violation: ${esc(f.case.violation.label)}` : ", valid input"}):</p><pre>${esc(JSON.stringify(f.case.request, null, 2))}</pre>`
    : f.sequence
      ? `<p>Shrunk command sequence (starting balance ${f.sequence.credits}):</p><pre>${esc(JSON.stringify(f.sequence.commands, null, 2))}</pre>`
      : "";
  return `<p>seed <code>${f.seed}</code>, path <code>${esc(f.path ?? "—")}</code>, ${f.shrinks} shrinks${f.corpusFile ? `, replay file <code>${esc(f.corpusFile)}</code>` : ""}</p>
<ul>${f.failures.map((x) => `<li><code>${esc(x.check)}</code> ${esc(x.message)}</li>`).join("")}${f.error ? `<li>error: <pre>${esc(f.error)}</pre></li>` : ""}</ul>
${what}<p>Reproduce:</p><pre>${esc(f.curl.join("\n"))}</pre>`;
}

// a property's heading is its report record (fuzz-records.ts, as fuzz.json's records and the gate say it); the rest
// is what only the fuzzer has: counts, the shrunk counterexample
function propertyHtml(p: PropertyReport, rec: CheckRecord): string {
  const ok = rec.status === "passed";
  return `<h2 class="${ok ? "pass" : "fail"}">${ok ? "✓" : "✗"} ${esc(rec.id)}</h2>${rec.message ? `<p class="fail">${esc(rec.message)}</p>` : ""}
<table><tr><th>cases</th><td>${p.cases}${p.commands !== undefined ? ` (${p.commands} commands)` : ""} in ${p.seconds.toFixed(1)} s, ${p.casesPerSecond.toFixed(0)}/s, ${p.workers} worker(s)</td></tr>
<tr><th>operations</th><td>${counts(p.byOperation)}</td></tr><tr><th>statuses</th><td>${counts(p.byStatus)}</td></tr>
<tr><th>throttled (429)</th><td>${p.throttled}</td></tr><tr><th>waived</th><td>${counts(p.waived)}</td></tr></table>
${p.failure ? failureHtml(p.failure) : ""}`;
}

export function renderReportHtml(r: FuzzReport): string {
  const records = fuzzRecords(r);
  const verdict = r.exitCode === 0 ? "nothing found" : r.exitCode === 1 ? "a property failed" : "could not run";
  const waivers = r.waivers.length
    ? `<h2>Waived known issues</h2><ul>${r.waivers.map((w) => `<li><code>${esc(w.id)}</code> (${w.count}): ${esc(w.description)} <span class="muted">${esc(w.location)}</span></li>`).join("")}</ul>`
    : "";
  const replay = r.replay.length
    ? `<h2>Replay</h2><ul>${r.replay.map((x) => `<li class="${x.passed ? "pass" : "fail"}">${esc(x.id)} ${x.passed ? "✓" : "✗"} ${esc(x.failures.map((f) => `[${f.check}] ${f.message}`).join("; "))}</li>`).join("")}</ul>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plumbline fuzz: ${esc(verdict)}</title><style>${CSS}</style></head><body>
<h1 class="${r.exitCode === 0 ? "pass" : "fail"}">plumbline fuzz: ${esc(verdict)} (exit ${r.exitCode})</h1>
<table><tr><th>target</th><td>${esc(r.target.url)} ${r.target.version ? `(version ${esc(r.target.version)})` : ""}${r.target.admin ? `, mock admin API, ${esc(r.target.clock)} clock` : ""}</td></tr>
${r.fixture ? `<tr><th>fixture site</th><td>${esc(r.fixture.url)}: ${plural(r.fixture.pages.length, "page")}, failing ${esc(r.fixture.failing.join(", ") || "none")}</td></tr>` : ""}
<tr><th>seed</th><td><code>${r.seed}</code></td></tr><tr><th>budget</th><td>${r.budget.timeSeconds !== null ? `${r.budget.timeSeconds} s` : `${plural(r.budget.runs ?? 0, "run")}`}${r.only ? `, only ${esc(r.only.join(", "))}` : ""}</td></tr>
<tr><th>throughput</th><td>${r.totals.cases} input cases in ${r.totals.seconds.toFixed(1)} s: <strong>${r.totals.casesPerSecond.toFixed(0)} cases/s</strong></td></tr>
<tr><th>health after the run</th><td>${r.health ? `${r.health.passed ? "✓" : "✗"} ${esc(r.health.message)}` : "—"}</td></tr>
<tr><th>run</th><td>${esc(r.startedAt)} → ${esc(r.finishedAt)}</td></tr>${r.error ? `<tr><th>error</th><td class="fail">${esc(r.error)}</td></tr>` : ""}</table>
${r.properties.map((p, i) => propertyHtml(p, records[i])).join("\n")}${waivers}${replay}</body></html>
`;
}
