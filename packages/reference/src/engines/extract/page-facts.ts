// What a page states, gathered for /extract's deterministic extractor (issue 14, "POST /extract": structured data
// first, then headings, tables, lists and text). A pure function of the HTML, like extractHtml, so it can run
// wherever parsing runs (the parse worker pool).
import { parseDocument } from "../html-document.ts";

export type FactValue = string | number | boolean;

/** One stated value and where it was stated: `Product.offers.price` (JSON-LD), `Product.sku` (microdata), `og.title`. */
export interface Field {
  path: string;
  value: FactValue;
  source: "json-ld" | "microdata" | "meta";
}

export interface Table {
  /** the caption, or the nearest heading above the table */
  label: string;
  headers: string[];
  rows: string[][];
}

export interface List {
  label: string;
  items: string[];
}

export interface PageFacts {
  url: string;
  title: string;
  description: string | null;
  language: string | null;
  fields: Field[];
  tables: Table[];
  lists: List[];
  headings: string[];
  paragraphs: string[];
}

const MAX_FIELDS = 2000;
const squash = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

function flattenJsonLd(value: unknown, path: string[], out: Field[], depth = 0): void {
  if (out.length >= MAX_FIELDS || depth > 12) return;
  if (Array.isArray(value)) {
    for (const v of value) flattenJsonLd(v, path, out, depth + 1);
    return;
  }
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (Array.isArray(o["@graph"])) {
      flattenJsonLd(o["@graph"], path, out, depth + 1);
      return;
    }
    const type = typeof o["@type"] === "string" ? [o["@type"] as string] : [];
    const here = path.length === 0 ? type : path;
    for (const [k, v] of Object.entries(o)) {
      if (k.startsWith("@")) continue;
      flattenJsonLd(v, [...here, k], out, depth + 1);
    }
    return;
  }
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    const v = typeof value === "string" ? squash(value) : value;
    if (v !== "") out.push({ path: path.join("."), value: v, source: "json-ld" });
  }
}

function microdataValue(el: Element): string {
  for (const attr of ["content", "datetime", "href", "src", "value"]) {
    const v = el.getAttribute(attr);
    if (v) return v;
  }
  return squash(el.textContent);
}

/**
 * Each table's and list's label: its caption, else the nearest heading before it in document order that it does not
 * sit in (what walking back through its preceding siblings and theirs, outward, finds first). One pass over the
 * headings, tables and lists: the walk for each of them was quadratic in the page (issue 38: 2,000 sibling lists,
 * 4,000 elements, took 5.6 s, and 50,000 elements are within the parse caps).
 */
function labelsOf(document: Document): Map<Element, string> {
  const labels = new Map<Element, string>();
  const headings: Element[] = [];
  for (const el of Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6,table,ul,ol"))) {
    if (/^H[1-6]$/.test(el.tagName)) {
      headings.push(el);
      continue;
    }
    const caption = el.tagName === "TABLE" ? el.querySelector("caption") : null;
    if (caption) {
      labels.set(el, squash(caption.textContent));
      continue;
    }
    // a heading the element sits in is an ancestor, not a label (at most as many as the element is deep)
    let k = headings.length - 1;
    while (k >= 0 && headings[k].contains(el)) k--;
    labels.set(el, k >= 0 ? squash(headings[k].textContent) : "");
  }
  return labels;
}

function readTable(table: Element, label: string): Table | null {
  const rows = Array.from(table.querySelectorAll("tr")).map((tr) =>
    Array.from(tr.querySelectorAll("th,td")).map((c) => squash(c.textContent)),
  );
  if (rows.length === 0) return null;
  const headRow = table.querySelector("thead tr") ?? table.querySelector("tr");
  const hasHeader = Boolean(headRow?.querySelector("th"));
  const headers = hasHeader ? rows[0] : rows[0].map((_, i) => `column ${i + 1}`);
  const body = (hasHeader ? rows.slice(1) : rows).filter((r) => r.some((c) => c !== ""));
  return { label, headers, rows: body };
}

export function readPageFacts(html: string, url: string): PageFacts {
  const document = parseDocument(html);
  const fields: Field[] = [];
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      flattenJsonLd(JSON.parse(script.textContent ?? ""), [], fields);
    } catch {
      // a broken JSON-LD block states nothing
    }
  }
  for (const el of Array.from(document.querySelectorAll("[itemprop]")).slice(0, MAX_FIELDS)) {
    const scope = el.parentElement?.closest("[itemscope]");
    const type = scope?.getAttribute("itemtype")?.split("/").pop() ?? "";
    const prop = el.getAttribute("itemprop") ?? "";
    const value = microdataValue(el);
    if (prop && value) fields.push({ path: type ? `${type}.${prop}` : prop, value, source: "microdata" });
  }
  for (const meta of Array.from(document.querySelectorAll("meta[content]"))) {
    const name = meta.getAttribute("property") ?? meta.getAttribute("name") ?? meta.getAttribute("itemprop");
    const content = squash(meta.getAttribute("content"));
    if (name && content) fields.push({ path: name.replace(/:/g, "."), value: content, source: "meta" });
  }
  for (const el of Array.from(document.querySelectorAll("script,style,noscript,template,svg"))) el.remove();
  const headings = Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6"))
    .map((h) => squash(h.textContent))
    .filter(Boolean);
  const labels = labelsOf(document);
  const tables = Array.from(document.querySelectorAll("table")).flatMap((t) => readTable(t, labels.get(t) ?? "") ?? []);
  const lists = Array.from(document.querySelectorAll("ul,ol")).map((l) => ({
    label: labels.get(l) ?? "",
    items: Array.from(l.children)
      .filter((c) => c.tagName === "LI")
      .map((c) => squash(c.textContent))
      .filter(Boolean),
  }));
  const paragraphs = Array.from(document.querySelectorAll("p,dd,blockquote"))
    .map((p) => squash(p.textContent))
    .filter(Boolean);
  const meta = (name: string) => fields.find((f) => f.source === "meta" && f.path === name)?.value;
  const title = squash(document.querySelector("h1")?.textContent) || squash(document.title) || new URL(url).hostname;
  const description = String(meta("description") ?? meta("og.description") ?? paragraphs[0] ?? "") || null;
  const language = document.documentElement?.getAttribute("lang") || null;
  return {
    url,
    title,
    description,
    language,
    fields,
    tables,
    lists: lists.filter((l) => l.items.length > 0),
    headings,
    paragraphs,
  };
}

/** The facts of a page that is text, not HTML: its lines as paragraphs. */
export function textFacts(text: string, url: string): PageFacts {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map(squash)
    .filter(Boolean)
    .slice(0, 500);
  return {
    url,
    title: paragraphs[0]?.slice(0, 120) || new URL(url).hostname,
    description: paragraphs[1] ?? null,
    language: null,
    fields: [],
    tables: [],
    lists: [],
    headings: [],
    paragraphs,
  };
}
