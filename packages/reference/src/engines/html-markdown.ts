// HTML → Markdown (D-crawl-content: headings, lists, links, code blocks), with turndown. ATX headings, fenced code
// (the language kept from a `language-*` class), "-" bullets followed by one space as the mock writes them.
import TurndownService from "turndown";
import { parseDocument } from "./html-document.ts";

const service = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
  hr: "---",
});

// turndown escapes every "_"; inside a word it cannot start emphasis (CommonMark's flanking rules), so snake_case
// and file_names stay as written
const escapeText = service.escape.bind(service);
service.escape = (text: string) => escapeText(text).replace(/(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu, "_");

service.remove(["script", "style", "noscript", "template", "iframe", "button", "form", "input", "select", "textarea"]);

// turndown's own rule pads bullets to four columns ("-   item"); one space is what Markdown writers use.
service.addRule("listItem", {
  filter: "li",
  replacement(content, node, options) {
    const parent = node.parentNode as Element | null;
    let prefix = `${options.bulletListMarker} `;
    if (parent?.nodeName === "OL") {
      const start = Number(parent.getAttribute("start") ?? 1);
      prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
    }
    const body = content
      .replace(/^\n+/, "")
      .replace(/\n+$/, "\n")
      .replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
    return prefix + body + (node.nextSibling && !/\n$/.test(body) ? "\n" : "");
  },
});

// an inline image in a data: URI would put kilobytes of base64 into the text; keep its alt text only
service.addRule("dataImage", {
  filter: (node) => node.nodeName === "IMG" && (node.getAttribute("src") ?? "").startsWith("data:"),
  replacement: (_content, node) => (node as Element).getAttribute("alt") ?? "",
});

// Tables as GFM pipe tables when they hold data: no table inside, some row with two cells or more. The first row is
// the header (GFM needs one). A layout table (nested, or one column) keeps its cells as paragraphs.
function dataTable(node: Node): Element | null {
  const table = (node as Element).closest?.("table");
  if (!table || table.querySelector("table")) return null;
  return [...table.querySelectorAll("tr")].some((tr) => tr.querySelectorAll("th, td").length >= 2) ? table : null;
}

const firstRow = (table: Element) => table.querySelector("tr");
const span = (cell: Element) => Math.max(1, Math.min(50, Number(cell.getAttribute("colspan")) || 1));

service.addRule("tableCell", {
  filter: (node) => (node.nodeName === "TH" || node.nodeName === "TD") && dataTable(node) !== null,
  replacement(content, node) {
    const text = content
      .trim()
      .replace(/\s*\n\s*/g, " ")
      .replace(/\|/g, "\\|");
    return ` ${text} |${" |".repeat(span(node as Element) - 1)}`;
  },
});

service.addRule("tableRow", {
  filter: (node) => node.nodeName === "TR" && dataTable(node) !== null,
  replacement(content, node) {
    const row = `\n|${content}`;
    const table = dataTable(node) as Element;
    if (firstRow(table) !== node) return row;
    let columns = 0;
    for (const cell of (node as Element).querySelectorAll("th, td")) columns += span(cell);
    return `${row}\n|${" --- |".repeat(columns)}`;
  },
});

service.addRule("table", {
  filter: (node) => node.nodeName === "TABLE" && dataTable(node) !== null,
  replacement: (content) => `\n\n${content.replace(/^\n+/, "")}\n\n`,
});

service.addRule("tableSection", {
  filter: (node) => ["THEAD", "TBODY", "TFOOT"].includes(node.nodeName) && dataTable(node) !== null,
  replacement: (content) => content,
});

/** Markdown of an HTML fragment or element; runs of blank lines collapsed. */
export function toMarkdown(html: string | Node): string {
  // one DOM for every rule: a string is parsed by linkedom too, not by turndown's own parser
  const root = typeof html === "string" ? (parseDocument(html).body as unknown as Node) : html;
  return service
    .turndown(root as unknown as string)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
