// The human-readable API reference served at `/docs` (D-headers: rel="service-doc"): one self-contained HTML page
// generated from the contract alone, with no scripts, fonts or stylesheets fetched from anywhere.
import { type Contract, ERROR_CATALOGUE, type OperationSpec, STATUS_LABELS } from "@plumbline-kit/contract";
import { commonHeaders, renderCommonHeaders } from "./docs-headers.ts";
import { anchorId, escapeHtml, inline, paragraphs, table } from "./docs-html.ts";
import { type DocsContext, operationAnchor, renderOperation } from "./docs-operation.ts";
import { DOCS_STYLE } from "./docs-style.ts";

function tableOfContents(contract: Contract, ids: ReadonlySet<string>): string {
  const op = (o: OperationSpec) =>
    `<li><a href="#${operationAnchor(o)}"><span class="method ${o.method}">${o.method.toUpperCase()}</span> <code>${escapeHtml(o.path)}</code></a> ${inline(o.summary, ids)}</li>`;
  const api = contract.operations.filter((o) => !o.discovery);
  const discovery = contract.operations.filter((o) => o.discovery);
  return [
    '<nav class="toc" aria-label="Contents"><strong>Contents</strong><ol>',
    `<li><a href="#operations">Operations</a><ol>${api.map(op).join("")}</ol></li>`,
    discovery.length
      ? `<li><a href="#discovery">Discovery documents</a><ol>${discovery.map(op).join("")}</ol></li>`
      : "",
    `<li><a href="#decisions">Decisions</a> (${contract.decisions.length})</li>`,
    '<li><a href="#errors">Error catalogue</a></li>',
    "</ol></nav>",
  ].join("\n");
}

function decisionsSection(contract: Contract, ids: ReadonlySet<string>): string {
  const entries = contract.decisions.map((d) =>
    [
      `<article class="decision" id="${anchorId(d.id)}">`,
      `<h3><code>${escapeHtml(d.id)}</code> ${inline(d.topic, ids)}</h3>`,
      "<dl>",
      `<dt>Contract</dt><dd>${paragraphs(d.contract, ids)}</dd>`,
      `<dt>Decision</dt><dd>${paragraphs(d.decision, ids)}</dd>`,
      d.evidence ? `<dt>Evidence</dt><dd>${paragraphs(d.evidence, ids)}</dd>` : "",
      `<dt>Why</dt><dd>${paragraphs(d.reason, ids)}</dd>`,
      "</dl></article>",
    ]
      .filter(Boolean)
      .join("\n"),
  );
  return [
    '<section id="decisions"><h2>Decisions</h2>',
    "<p>Where the interface leaves a fact “not shown”, these decisions fill it. A check that rests on one is an assumption about the live service, not contract text.</p>",
    ...entries,
    "</section>",
  ].join("\n");
}

function errorsSection(ids: ReadonlySet<string>): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, e]) => [
    `<td class="field" id="${anchorId(code)}"><code>${escapeHtml(code)}</code></td>`,
    `<td>${e.status}</td>`,
    `<td>${escapeHtml(STATUS_LABELS[e.status] ?? "")}</td>`,
    `<td>${escapeHtml(e.message)}</td>`,
    `<td>${inline(e.when, ids)}</td>`,
  ]);
  return [
    '<section id="errors"><h2>Error catalogue</h2>',
    `<p>Every error body carries <code>ok: false</code>, <code>error</code> (the status label), <code>message</code> and one of these stable <code>code</code> values.</p>`,
    table(["Code", "Status", "Error", "Default message", "When"], rows),
    "</section>",
  ].join("\n");
}

export function renderDocsPage(contract: Contract, options: { title?: string } = {}): string {
  const info = contract.document.info;
  const title = options.title ?? `${info.title} ${contract.version}: API reference`;
  const ids = new Set(contract.decisions.map((d) => d.id));
  const api = contract.operations.filter((o) => !o.discovery);
  const discovery = contract.operations.filter((o) => o.discovery);
  const summary = (info as { summary?: string }).summary;
  const common = commonHeaders(contract);
  const ctx: DocsContext = { contract, ids, commonHeaders: new Set(common.keys()) };
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${DOCS_STYLE}</style>`,
    "</head>",
    "<body><main>",
    `<h1>${escapeHtml(title)}</h1>`,
    summary ? `<p class="lead">${inline(summary, ids)}</p>` : "",
    paragraphs(info.description, ids),
    `<p>Interface version <code>${escapeHtml(contract.version)}</code>, profile <code>${escapeHtml(contract.profile)}</code>. The machine-readable description is served at <a href="openapi.json"><code>/openapi.json</code></a>.</p>`,
    tableOfContents(contract, ids),
    '<section id="operations"><h2>Operations</h2>',
    `<div id="common-headers">${renderCommonHeaders(common, ids)}</div>`,
    ...api.map((o) => renderOperation(ctx, o)),
    "</section>",
    discovery.length ? '<section id="discovery"><h2>Discovery documents</h2>' : "",
    ...discovery.map((o) => renderOperation(ctx, o)),
    discovery.length ? "</section>" : "",
    decisionsSection(contract, ids),
    errorsSection(ids),
    "</main></body>",
    "</html>",
    "",
  ]
    .filter((part) => part !== "")
    .join("\n");
}
