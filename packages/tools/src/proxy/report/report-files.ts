// The report's files: proxy.json (the typed record, and its `records`: the one report record of every client),
// junit.xml (one testsuite per operation seen, one testcase
// per rule, failing with its violations) and report.html (the same, for a person). Each is written to a temporary
// name and renamed, so a CI job reading them never sees half a file.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CheckRecord, junitCase } from "@plumbline-kit/contract/report/check-record";
import { junitXml as writeJunit, xmlEscape } from "@plumbline-kit/contract/report/junit";
import { plural } from "@plumbline-kit/contract/report/plural";
import { RULES } from "../judge/rules.ts";
import type { ProxyReport, ReportedViolation } from "./violation-report.ts";

function describe(v: ReportedViolation): string {
  const e = v.exchange;
  const got = e.response ? `${e.response.status}` : "no answer";
  const detail = v.expected !== undefined ? ` (expected ${v.expected}, got ${v.actual ?? "?"})` : "";
  return `#${v.exchangeId} ${e.method} ${e.path} → ${got} [${v.servedBy}]: ${v.message}${detail}`;
}

/**
 * The report as the one report record of every client (contract/src/report/check-record.ts): one per rule and
 * operation seen, failed with its violations (the first one's message, expected and actual, its curl command).
 */
export function proxyRecords(r: ProxyReport): CheckRecord[] {
  return r.operations.flatMap((op) =>
    RULES.map((rule): CheckRecord => {
      const base = {
        id: rule.id,
        group: `proxy.${op.operationId}`,
        operation: op.operationId,
        section: rule.basis,
        severity: rule.severity,
      };
      const g = op.rules.find((x) => x.rule === rule.id);
      if (!g) return { ...base, status: "passed" };
      const first = g.examples[0];
      const lines = g.examples.map(describe);
      if (g.count > g.examples.length) lines.push(`… and ${g.count - g.examples.length} more`);
      const curls = g.examples.slice(0, 3).map((v) => `#${v.exchangeId}: ${v.curl}`);
      return {
        ...base,
        status: "failed",
        message: `${g.count} violation(s): ${first?.message ?? rule.title}`,
        ...(first?.expected !== undefined ? { expected: first.expected, actual: first.actual ?? "?" } : {}),
        ...(first ? { curl: first.curl } : {}),
        details: [rule.title, `basis: ${rule.basis}`, ...lines, "", ...curls].join("\n"),
      };
    }),
  );
}

export function junitXml(r: ProxyReport): string {
  const records = proxyRecords(r);
  return writeJunit({
    name: `plumbline proxy (${r.upstream})`,
    seconds: 0,
    suites: r.operations.map((op) => ({
      name: `proxy.${op.operationId}`,
      timestamp: r.startedAt,
      properties: [["exchanges", op.exchanges]],
      cases: records.filter((x) => x.operation === op.operationId).map(junitCase),
    })),
  });
}

const h = xmlEscape;

function exchangeHtml(v: ReportedViolation): string {
  const e = v.exchange;
  const headers = (list: Array<[string, string]>) => list.map(([k, val]) => `${h(k)}: ${h(val)}`).join("\n");
  const body = (b: { text: string; encoding?: string; mimeType: string; size: number } | null | undefined) =>
    !b
      ? ""
      : b.encoding === "base64"
        ? `\n\n<${b.size} bytes of ${h(b.mimeType)}, base64>`
        : `\n\n${h(b.text.slice(0, 20_000))}`;
  const response = e.response
    ? `HTTP/${h(e.response.httpVersion)} ${e.response.status} ${h(e.response.statusText)}\n${headers(e.response.headers)}${body(e.response.body)}`
    : "(no answer)";
  return `<details><summary>${h(describe(v))}</summary>
<p>curl:</p><pre class="curl">${h(v.curl)}</pre>
<p>request (${h(v.at)}):</p><pre>${h(e.method)} ${h(e.path)} HTTP/${h(e.httpVersion)}\n${headers(e.requestHeaders)}${body(e.requestBody)}</pre>
<p>response:</p><pre>${response}</pre>
${e.redacted.length ? `<p class="note">redacted: ${h(e.redacted.join(", "))}</p>` : ""}</details>`;
}

export function reportHtml(r: ProxyReport): string {
  const t = r.totals;
  const verdict =
    t.violations === 0
      ? `<p class="ok">No violation in ${plural(t.exchanges, "exchange")}.</p>`
      : `<p class="bad">${plural(t.violations, "violation")} in ${plural(t.exchanges, "exchange")}.</p>`;
  // a rule's heading is its report record (proxyRecords, as junit.xml and proxy.json's records say it); the
  // examples below are what only the proxy has: each exchange, redacted, with its curl
  const records = new Map(proxyRecords(r).map((x) => [`${x.operation} ${x.id}`, x]));
  const ops = r.operations
    .map((op) => {
      const rules = op.rules
        .map((g) => {
          const rec = records.get(`${op.operationId} ${g.rule}`);
          return `<section class="rule"><h3><code>${h(rec?.id ?? g.rule)}</code> ${g.count}× <span class="sev ${rec?.severity ?? g.severity}">${rec?.severity ?? g.severity}</span> <span class="side">${g.side}</span></h3>
<p>${h(g.title)} <span class="basis">(${h(g.basis)})</span></p>
${g.examples.map(exchangeHtml).join("\n")}${g.count > g.examples.length ? `<p class="note">… and ${g.count - g.examples.length} more not kept</p>` : ""}</section>`;
        })
        .join("\n");
      return `<section class="op"><h2>${h(op.operationId)} <small>${plural(op.exchanges, "exchange")}, ${plural(op.violations, "violation")}</small></h2>${rules || '<p class="ok">clean</p>'}</section>`;
    })
    .join("\n");
  const ruleRows = r.rules
    .map(
      (x) =>
        `<tr><td><code>${x.id}</code></td><td>${x.count}</td><td>${x.side}</td><td>${x.severity}</td><td>${h(x.title)}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>plumbline proxy report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f}
pre{background:#f5f5f7;padding:.6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.ok{color:#176c2a}.bad{color:#b3261e;font-weight:600}.sev{font-size:12px;padding:1px 6px;border-radius:8px;background:#eee}
.critical{background:#fbd3d0}.major{background:#fde7c4}.minor{background:#e6eefc}.side,.basis,.note,small{color:#666;font-weight:normal}
table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
details{margin:.4rem 0}summary{cursor:pointer}
</style></head><body>
<h1>plumbline proxy report</h1>
<p>upstream <code>${h(r.upstream)}</code> · started ${h(r.startedAt)} · updated ${h(r.updatedAt)} · plumbline ${h(r.version)}</p>
${verdict}
<p>${t.judged} judged (matched an operation) · served by upstream ${t.servedBy.upstream}, mock ${t.servedBy.mock}, proxy ${t.servedBy.proxy} · ${t.refused} refused · ${t.fallbacks} fallbacks</p>
${ops}
<h2>Rules</h2><table><tr><th>rule</th><th>seen</th><th>side</th><th>severity</th><th>what it checks</th></tr>${ruleRows}</table>
</body></html>
`;
}

function writeAtomically(path: string, text: string) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export interface ReportFiles {
  json: string;
  junit: string;
  html: string;
}

export function writeReportFiles(dir: string, r: ProxyReport): ReportFiles {
  mkdirSync(dir, { recursive: true });
  const files = { json: join(dir, "proxy.json"), junit: join(dir, "junit.xml"), html: join(dir, "report.html") };
  writeAtomically(files.json, `${JSON.stringify({ ...r, records: proxyRecords(r) }, null, 2)}\n`);
  writeAtomically(files.junit, junitXml(r));
  writeAtomically(files.html, reportHtml(r));
  return files;
}
