// Small text measures the article rules share: an element's visible text, how much of it sits in links, its
// words. Pure functions over a DOM element (linkedom), no state.
//
// The rules measure every candidate block, and most candidates hold most of the page: building each one's text as
// a string (textContent, then a collapse and a split into words) made three quarters of what a crawl's parse
// allocated, and the collection of it ran on the second core the pool parses on (issue 12). So the counts walk the
// text nodes in place and allocate nothing; a string is built only for the short blocks a rule reads.
import { SPACE_UNIT } from "@plumbline-kit/platform/word-count";
import { localTag, walkElements } from "./tag-selectors.ts";

/** The element's text with runs of white space collapsed. */
export function textOf(el: Element): string {
  return (el.textContent ?? "").replace(/\s+/g, " ").trim();
}

export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

const TEXT_NODE = 3;
const CDATA_NODE = 4;
const ELEMENT_NODE = 1;

/** Each text node's data under `node`, in document order (what textContent joins); a loop, not a recursion. */
function eachText(node: Node, visit: (data: string) => void): void {
  let c: Node | null = node.firstChild;
  while (c) {
    if (c.nodeType === TEXT_NODE || c.nodeType === CDATA_NODE) visit((c as Text).data);
    const down: Node | null = c.nodeType === ELEMENT_NODE ? c.firstChild : null;
    if (down) {
      c = down;
      continue;
    }
    let up: Node | null = c;
    c = null;
    while (up) {
      const next: Node | null = up.nextSibling;
      if (next) {
        c = next;
        break;
      }
      const parent: Node | null = up.parentNode;
      up = parent === node ? null : parent;
    }
  }
}

// [\p{L}\p{N}_], one entry per UTF-16 unit below 0x10000, filled as characters are met (0 unknown, 1 word, 2 not)
const WORD_UNIT = new Uint8Array(0x10000);
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
function isWordCode(cp: number): boolean {
  if (cp < 0x10000) {
    let k = WORD_UNIT[cp];
    if (k === 0) WORD_UNIT[cp] = k = WORD_CHAR.test(String.fromCharCode(cp)) ? 1 : 2;
    return k === 1;
  }
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

/** wordCount(textOf(el)), without building the text: runs of letters, digits and "_" across text nodes. */
export function wordCountOf(el: Node): number {
  let words = 0;
  let inWord = false;
  eachText(el, (s) => {
    for (let i = 0; i < s.length; i++) {
      let cp = s.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < s.length) {
        const lo = s.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
          i++;
        }
      }
      const w =
        cp < 128
          ? (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57) || cp === 95
          : isWordCode(cp);
      if (w && !inWord) words++;
      inWord = w;
    }
  });
  return words;
}

/** textOf(el).length, without building the text. */
export function textLengthOf(el: Node): number {
  let length = 0;
  let started = false;
  let space = false;
  eachText(el, (s) => {
    for (let i = 0; i < s.length; i++) {
      if (SPACE_UNIT[s.charCodeAt(i)] === 1) {
        if (started) space = true;
      } else {
        if (space) length++;
        space = false;
        started = true;
        length++;
      }
    }
  });
  return length;
}

/**
 * The elements under `root` in document order (what querySelectorAll("*") yields: not the contents of a
 * <template>), while `visit` returns nothing; its first other answer ends the walk and is returned.
 */
export function findElement<T>(root: Element, visit: (el: Element) => T | undefined): T | undefined {
  let found: T | undefined;
  walkElements(root, (el) => {
    found = visit(el);
    return found !== undefined;
  });
  return found;
}

/** The element or its nearest ancestor whose tag name is in `tags` (closest() with a list of tag names). */
export function closestTag(el: Element, tags: ReadonlySet<string>): Element | null {
  for (let e: Element | null = el; e; e = e.parentElement) if (tags.has(localTag(e))) return e;
  return null;
}

/** Share of the element's letters that are inside links (0 when it has no text). */
export function linkDensity(el: Element): number {
  const total = textLengthOf(el);
  if (total === 0) return 0;
  let linked = 0;
  for (const a of el.querySelectorAll("a")) linked += textLengthOf(a);
  return Math.min(1, linked / total);
}

const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "div",
  "dl",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
]);

export const isBlock = (el: Element) => BLOCKS.has(localTag(el));
export const isHeading = (el: Element) => /^h[1-6]$/i.test(el.localName);

/** No block element inside: a paragraph-like leaf of the layout. */
export function isLeafBlock(el: Element): boolean {
  if (!isBlock(el)) return false;
  return findElement(el, (child) => (isBlock(child) ? true : undefined)) === undefined;
}

/** The element's class and id as one lower-case string of words ("post-meta byline__date" → "post meta byline date"). */
export function nameOf(el: Element): string {
  return `${el.getAttribute("class") ?? ""} ${el.id ?? ""}`
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .toLowerCase()
    .trim();
}
