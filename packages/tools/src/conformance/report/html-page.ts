// One self-contained HTML page (no external asset): the summary, every check with its interface-spec section and
// basis, the failing exchanges with request, response and a curl command, and a client-side filter by status.

import { curlCommand } from "@plumbline-kit/contract/report/curl";
import { xmlEscape } from "@plumbline-kit/contract/report/junit";
import { plural } from "@plumbline-kit/contract/report/plural";
import { checkCount, SKIP_KINDS, type SkipTally } from "../skip-reasons.ts";
import { basisLabel, type CheckResult, type ConformanceResult, type Exchange } from "../types.ts";
import { checkRecord } from "./check-records.ts";
import { FILTER_SCRIPT, STYLE } from "./html-assets.ts";

const esc = (s: unknown) => xmlEscape(String(s));
const BODY_LIMIT = 4000;
const SAMPLE = 3;
const FAILING_SHOWN = 20;

function headers(h: Record<string, string>): string {
  return Object.entries(h)
    .map(([k, v]) => `${esc(k)}: ${esc(v)}`)
    .join("\n");
}

function body(text: string | undefined): string {
  if (!text) return "";
  const t =
    text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters)` : text;
  return `\n\n${esc(t)}`;
}

function exchange(ex: Exchange, withCurl: boolean, anchor: string): string {
  const r = ex.response;
  const res = r ? `HTTP ${r.status}\n${headers(r.headers)}${body(r.text)}` : `no answer: ${esc(ex.error ?? "")}`;
  return `<div class="exchange" id="${anchor}-${ex.id}">
<div class="exhead">#${ex.id} · ${esc(ex.request.method)} ${esc(ex.request.url)} → ${r ? r.status : "no answer"} · ${ex.durationMs} ms · by ${esc(ex.by)}</div>
<div class="pair"><pre class="req">${esc(ex.request.method)} ${esc(ex.request.url)}\n${headers(ex.request.headers)}${body(ex.request.body)}</pre><pre class="res">${res}</pre></div>
${withCurl ? `<pre class="curl">${esc(curlCommand({ method: ex.request.method, url: ex.request.url, headers: ex.request.headers, body: ex.request.body }))}</pre>` : ""}</div>`;
}

function check(c: CheckResult, byId: Map<number, Exchange>): string {
  // the row's head is the one report record (check-records.ts), as junit.xml and conformance.json's records say it;
  // the body shows what only the suite has: its failures' exchanges, with request, response and curl
  const rec = checkRecord(c, byId);
  const basis = esc(basisLabel(c.basis));
  const failing = [...new Set(c.failures.flatMap((f) => f.exchanges))];
  const shown = (failing.length ? failing.slice(0, FAILING_SHOWN) : c.exchangeIds.slice(0, SAMPLE))
    .map((id) => byId.get(id))
    .filter((e): e is Exchange => e !== undefined);
  const failures = c.failures
    .map(
      (f) =>
        `<li>${esc(f.message)}${f.expected !== undefined ? ` <span class="ea">expected <code>${esc(f.expected)}</code>, got <code>${esc(f.actual ?? "?")}</code></span>` : ""} ${f.exchanges.map((id) => `<a href="#${esc(c.id)}-${id}">#${id}</a>`).join(" ")}</li>`,
    )
    .join("");
  return `<details class="check ${rec.status}" data-status="${rec.status}" data-text="${esc(`${rec.id} ${c.title} ${c.section}`.toLowerCase())}"${rec.status === "failed" ? " open" : ""}>
<summary><span class="badge ${rec.status}">${rec.status}</span> <code>${esc(rec.id)}</code> ${esc(c.title)}
<span class="meta">§ ${esc(c.section)} · ${basis} · ${rec.severity} · ${rec.durationMs} ms${rec.operation ? ` · ${esc(rec.operation)}` : ""}</span></summary>
${c.reason ? `<p class="reason">${esc(c.reason)}</p>` : ""}
${c.notes.length ? `<ul class="notes">${c.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : ""}
${failures ? `<ul class="failures">${failures}</ul>` : ""}
${shown.length ? `<h4>${failing.length ? "Failing exchanges (with curl)" : "Sample exchanges"}</h4>${shown.map((e) => exchange(e, failing.length > 0, esc(c.id))).join("")}` : ""}
${failing.length > FAILING_SHOWN ? `<p class="reason">${failing.length - FAILING_SHOWN} more failing exchanges in the JSON record</p>` : ""}
</details>`;
}

/** Skips cannot hide (issue 27): one row per kind, with its count, why, and whether it failed the run. */
function skipRows(skips: SkipTally[]): string {
  return skips
    .map((t) => {
      const verdict = t.allowed
        ? `allowed (${esc(t.allowedBy ?? "")})`
        : `<span class="verdict failed">fails the run</span>: <code>--allow-skipped ${esc(t.kind)}</code> accepts it`;
      return `<tr><th>skipped: ${esc(t.kind)}</th><td colspan="3">${checkCount(t)}: ${esc(SKIP_KINDS[t.kind].label)}: ${esc(t.reason)}${t.precondition ? `; ${verdict}` : ""}</td></tr>`;
    })
    .join("\n");
}

export function htmlPage(r: ConformanceResult): string {
  const byId = new Map(r.exchanges.map((e) => [e.id, e]));
  const s = r.summary;
  const verdict = r.exitCode === 0 ? "passed" : r.exitCode === 1 ? "failed" : "could not run";
  const filters = (["all", "failed", "warning", "skipped", "passed"] as const)
    .map(
      (st) =>
        `<button data-filter="${st}"${st === "all" ? ' class="on"' : ""}>${st} (${st === "all" ? s.total : s[st]})</button>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>plumbline conformance: ${esc(verdict)} (${esc(r.target)})</title><style>${STYLE}</style></head>
<body>
<h1>plumbline conformance: <span class="verdict ${r.exitCode === 0 ? "passed" : "failed"}">${esc(verdict)}</span></h1>
<table class="summary">
<tr><th>target</th><td>${esc(r.target)}</td><th>profile</th><td>${esc(r.profile)}</td></tr>
<tr><th>started</th><td>${esc(r.startedAt)}</td><th>duration</th><td>${(r.durationMs / 1000).toFixed(1)} s</td></tr>
<tr><th>credits</th><td>plan ≤ ${r.planCredits}, spent ${r.creditsSpent ?? "?"}</td><th>bound set</th><td>${esc(r.boundSet ?? "not probed")}</td></tr>
<tr><th>checks</th><td colspan="3">${s.passed} passed, ${s.failed} failed, ${plural(s.warning, "warning")}, ${s.skipped} skipped, ${plural(r.exchanges.length, "exchange")}</td></tr>
${skipRows(r.skips ?? [])}
${r.error ? `<tr><th>error</th><td colspan="3">${esc(r.error)}</td></tr>` : ""}
</table>
<p>Credentials are shown as <code>$PLUMBLINE_API_KEY</code> / <code>$PLUMBLINE_BROKE_API_KEY</code>: set them to run the curl commands.</p>
<div class="filters">${filters}<input id="q" type="search" placeholder="filter by id, title or section"></div>
<main id="checks">${r.checks.map((c) => check(c, byId)).join("\n")}</main>
<script>${FILTER_SCRIPT}</script>
</body></html>
`;
}
