// The reports of `plumbline edges --report-dir DIR`: edges.json (the whole result), edges.junit.xml (one case per
// edge: a failed edge is a failure, an edge not exercised is skipped; the shared JUnit writer) and edges.html (one
// self-contained page, text escaped by the shared escaper).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { htmlEscape } from "@plumbline-kit/contract/report/html";
import { junitXml } from "@plumbline-kit/contract/report/junit";
import { plural } from "@plumbline-kit/contract/report/plural";
import type { EdgeRun, EdgesResult } from "./run-edges.ts";

export const REPORT_FILES = { json: "edges.json", junit: "edges.junit.xml", html: "edges.html" } as const;

function junit(r: EdgesResult): string {
  const command = r.command.join(" ");
  return junitXml({
    name: "plumbline edges",
    seconds: r.durationMs / 1000,
    suites: [
      {
        name: `edges: ${command}`,
        timestamp: r.startedAt.replace(/\.\d+Z$/, ""),
        properties: [
          ["command", command],
          ["baseline", r.baseline.passed ? "passed" : `failed (exit ${r.baseline.exitCode})`],
        ],
        cases: [
          {
            name: "baseline",
            classname: "edges",
            seconds: r.baseline.durationMs / 1000,
            failure: r.baseline.passed
              ? undefined
              : {
                  message: `the command failed against the plain mock (exit ${r.baseline.exitCode})`,
                  text: r.baseline.outputTail,
                },
          },
          ...r.edges.map((e) => ({
            name: `${e.edge.id}: ${e.edge.title}`,
            classname: "edges",
            seconds: e.durationMs / 1000,
            skipped: e.verdict === "not exercised" ? notExercised(e) : undefined,
            failure:
              e.verdict === "failed"
                ? {
                    message: `${e.timedOut ? "timed out" : `exit ${e.exitCode}`} with the mock answering: ${e.edge.answer} (allowed by ${e.edge.allowedBy.join("; ")}). ${e.edge.handling}`,
                    text: e.outputTail,
                  }
                : undefined,
            output: `${plural(e.alteredCount, "request")} altered`,
          })),
        ],
      },
    ],
  });
}

/** Why an edge was not exercised: the run made no request it applies to, or it was not run at all. */
function notExercised(e: EdgeRun): string {
  const ops = e.edge.operations.join(", ");
  return e.ran
    ? `not exercised: the command made no request of ${ops}`
    : `not exercised, not run: the baseline called none of ${ops}`;
}

const VERDICT_CLASS = { passed: "pass", failed: "fail", "not exercised": "skip" } as const;

function html(r: EdgesResult): string {
  const esc = htmlEscape;
  const count = (v: string) => r.edges.filter((e) => e.verdict === v).length;
  const rows = r.edges
    .map(
      (e) =>
        `<tr class="${VERDICT_CLASS[e.verdict]}"><td><a href="#${esc(e.edge.id)}">${esc(e.edge.id)}</a></td><td>${esc(e.verdict)}${e.timedOut ? " (timed out)" : ""}</td><td>${e.alteredCount}</td><td>${esc(e.edge.allowedBy.join("; "))}</td></tr>`,
    )
    .join("\n");
  const details = r.edges
    .map(
      (
        e,
      ) => `<section id="${esc(e.edge.id)}" class="${VERDICT_CLASS[e.verdict]}"><h2>${esc(e.edge.id)}: ${esc(e.edge.title)} · ${esc(e.verdict)}</h2>
<p><b>The mock answers:</b> ${esc(e.edge.answer)}</p>
<p><b>Allowed by:</b> ${esc(e.edge.allowedBy.join("; "))}. <b>A client:</b> ${esc(e.edge.handling)}</p>
<p>${e.ran ? `Exit ${e.exitCode}${e.timedOut ? " (timed out)" : ""} in ${e.durationMs} ms; ${plural(e.alteredCount, "request")} altered${e.altered.length ? ":" : "."}` : esc(`${notExercised(e)}.`)}</p>
${e.altered.length ? `<ul>${e.altered.map((a) => `<li>${esc(a.method)} ${esc(a.url)} → ${a.status ?? "no answer"}: ${esc(a.change)}</li>`).join("")}</ul>` : ""}
<pre>${esc(e.outputTail)}</pre></section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>plumbline edges</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:75em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}
.fail td:nth-child(2),section.fail h2{color:#b00}.pass td:nth-child(2),section.pass h2{color:#070}.skip td:nth-child(2),section.skip h2{color:#666}
pre{background:#f6f6f6;padding:.6em;overflow:auto;max-height:30em}</style></head><body>
<h1>plumbline edges</h1>
<p><code>${esc(r.command.join(" "))}</code> · started ${esc(r.startedAt)} · ${(r.durationMs / 1000).toFixed(1)} s · exit ${r.exitCode}</p>
<p>Baseline (a plain mock): ${r.baseline.passed ? `passed, calling ${esc(r.baseline.operations.join(", ") || "no operation")}` : `failed, exit ${r.baseline.exitCode}`}. Edges: ${count("failed")} failed, ${count("passed")} passed, ${count("not exercised")} not exercised.</p>
${r.baseline.passed ? "" : `<pre>${esc(r.baseline.outputTail)}</pre>`}
<table><tr><th>edge</th><th>verdict</th><th>altered</th><th>allowed by</th></tr>
${rows}</table>
${details}
</body></html>
`;
}

/** Writes the three reports into `dir` (which exists). */
export function writeEdgeReports(r: EdgesResult, dir: string): void {
  writeFileSync(join(dir, REPORT_FILES.json), `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(join(dir, REPORT_FILES.junit), junit(r));
  writeFileSync(join(dir, REPORT_FILES.html), html(r));
}
