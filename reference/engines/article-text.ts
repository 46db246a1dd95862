// Small text measures the article rules share: an element's visible text, how much of it sits in links, its
// words. Pure functions over a DOM element (linkedom), no state.

/** The element's text with runs of white space collapsed. */
export function textOf(el: Element): string {
  return (el.textContent ?? "").replace(/\s+/g, " ").trim();
}

export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

/** Share of the element's letters that are inside links (0 when it has no text). */
export function linkDensity(el: Element): number {
  const total = textOf(el).length;
  if (total === 0) return 0;
  let linked = 0;
  for (const a of el.querySelectorAll("a")) linked += textOf(a).length;
  return Math.min(1, linked / total);
}

const BLOCKS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "DIV",
  "DL",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "UL",
]);

export const isBlock = (el: Element) => BLOCKS.has(el.tagName);
export const isHeading = (el: Element) => /^H[1-6]$/.test(el.tagName);

/** No block element inside: a paragraph-like leaf of the layout. */
export function isLeafBlock(el: Element): boolean {
  if (!isBlock(el)) return false;
  for (const child of el.querySelectorAll("*")) if (isBlock(child) && child.tagName !== "BR") return false;
  return true;
}

/** The element's class and id as one lower-case string of words ("post-meta byline__date" → "post meta byline date"). */
export function nameOf(el: Element): string {
  return `${el.getAttribute("class") ?? ""} ${el.id ?? ""}`
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .toLowerCase()
    .trim();
}
