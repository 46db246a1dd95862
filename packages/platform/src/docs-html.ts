// Text → HTML for the docs page. Everything from the document passes through `escapeHtml` first; the only markup
// added afterwards is `code` spans and links to decision anchors, built from already-escaped text. The escaper is
// the one of spec/report/html.ts.
import { htmlEscape } from "@plumbline-kit/contract/report/html";

export const escapeHtml: (text: string) => string = htmlEscape;

/** A fragment id safe in `id` and `href` (letters, digits, `-`, `_`, `.`). */
export function anchorId(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]+/g, "-");
}

const DECISION_ID = /\bD-[a-z0-9]+(?:-[a-z0-9]+)*/g;

/**
 * One line of prose: escaped, `backticks` as code, decision ids (D-…) linked to their entry when `decisionIds`
 * knows them.
 */
export function inline(text: string, decisionIds: ReadonlySet<string> = new Set()): string {
  const parts = escapeHtml(text).split(/`([^`]*)`/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${part}</code>`;
      return part.replace(DECISION_ID, (id) =>
        decisionIds.has(id) ? `<a href="#${anchorId(id)}" class="decision-ref">${id}</a>` : id,
      );
    })
    .join("");
}

/** Prose that may span paragraphs (blank lines) and hard-wrapped lines (YAML block scalars). */
export function paragraphs(text: string | undefined, decisionIds?: ReadonlySet<string>): string {
  if (!text?.trim()) return "";
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${inline(p.replace(/\s*\n\s*/g, " "), decisionIds)}</p>`)
    .join("\n");
}

export function prettyJson(value: unknown): string {
  return `<pre><code>${escapeHtml(JSON.stringify(value, null, 2) ?? "undefined")}</code></pre>`;
}

/** A table wrapped for horizontal scrolling in a narrow window; cells are HTML already. */
export function table(head: string[], rows: string[][], className = ""): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.join("")}</tr>`).join("\n");
  return `<div class="table-wrap"><table class="${className}"><thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}
