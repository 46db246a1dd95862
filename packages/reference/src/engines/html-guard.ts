// The cheap look at a page before any DOM is built (issue 12: a 1.1 MB page of 100,000 nested <div>s kept
// Readability busy for minutes, a 4.7 MB page of 230,000 links overflowed the DOM library's stack). One linear pass
// over the tags, no regular expression that can backtrack: it counts elements and links and measures nesting, and
// flattens what lies deeper than the depth cap (the tags go, their text stays), so the parse that follows is bounded.
// D-parse-limits names the caps and what passing one answers.

export interface HtmlLimits {
  /** elements at most; past it a crawl is refused, a link scan reads the page up to there */
  maxElements: number;
  /** nesting depth at most; deeper elements are flattened into their parent */
  maxDepth: number;
  /** `<a>`/`<area>` elements at most (a crawl refuses past it, a link scan stops there) */
  maxLinks: number;
}

export const DEFAULT_HTML_LIMITS: HtmlLimits = { maxElements: 50_000, maxDepth: 128, maxLinks: 20_000 };

export type Guarded =
  | { ok: true; html: string; elements: number; links: number; flattened: number; truncated: boolean }
  | { ok: false; reason: string };

// Elements that never hold children, or whose end tag is optional (the parser closes them itself): neither kind
// deepens the tree the way a run of unclosed <div>s does, so they are counted but never stacked.
const UNSTACKED = new Set(
  (
    "area base br col embed hr img input link meta source track wbr param keygen basefont bgsound frame " +
    "p li dt dd option optgroup tr td th thead tbody tfoot rt rp colgroup caption html head body"
  ).split(" "),
);
// Their content is text up to their end tag, never markup.
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"]);
/** How far down the stack an end tag looks for its element; a stray end tag further than this is ignored. */
const END_TAG_REACH = 64;

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;

/** The index just past the `>` closing the tag whose name ends at `from` (quoted attribute values may hold `>`). */
function tagEnd(html: string, from: number): number {
  let quote = 0;
  let prev = 0;
  for (let j = from; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if ((c === 34 || c === 39) && prev === 61) quote = c;
    else if (c === 62) return j + 1;
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) prev = c;
  }
  return html.length;
}

/**
 * Scans `html` under `limits`. `mode: "refuse"` (a crawl) fails past the element or link cap; `mode: "truncate"`
 * (a link scan) keeps the page up to the element that passed a cap.
 */
export function guardHtml(html: string, limits: HtmlLimits, mode: "refuse" | "truncate"): Guarded {
  const stack: { name: string; kept: boolean }[] = [];
  const parts: string[] = [];
  let copied = 0;
  let elements = 0;
  let links = 0;
  let flattened = 0;
  const drop = (from: number, to: number) => {
    parts.push(html.slice(copied, from));
    copied = to;
  };
  const done = (end: number, truncated: boolean): Guarded => {
    const body = copied === 0 && end === html.length ? html : parts.join("") + html.slice(copied, end);
    return { ok: true, html: body, elements, links, flattened, truncated };
  };
  let i = 0;
  for (;;) {
    const lt = html.indexOf("<", i);
    if (lt < 0 || lt + 1 >= html.length) return done(html.length, false);
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (next === 33 || next === 63) {
      i = tagEnd(html, lt + 2);
      continue;
    }
    const closing = next === 47;
    const start = closing ? lt + 2 : lt + 1;
    if (!isNameStart(html.charCodeAt(start))) {
      i = lt + 1;
      continue;
    }
    let nameEnd = start + 1;
    while (nameEnd < html.length && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
    const name = html.slice(start, nameEnd).toLowerCase();
    const end = tagEnd(html, nameEnd);
    i = end;
    if (closing) {
      if (UNSTACKED.has(name)) continue;
      const floor = Math.max(0, stack.length - END_TAG_REACH);
      let k = stack.length - 1;
      while (k >= floor && stack[k].name !== name) k--;
      if (k < floor) continue;
      const kept = stack[k].kept;
      stack.length = k;
      if (!kept) drop(lt, end);
      continue;
    }
    elements++;
    if (name === "a" || name === "area") links++;
    const over =
      elements > limits.maxElements
        ? `more than ${limits.maxElements} elements`
        : links > limits.maxLinks
          ? `more than ${limits.maxLinks} links`
          : null;
    if (over) return mode === "refuse" ? { ok: false, reason: over } : done(lt, true);
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}[\\s/>]`, "ig");
      close.lastIndex = end;
      const m = close.exec(html);
      i = m ? m.index : html.length;
      if (stack.length >= limits.maxDepth) {
        // a raw-text element past the cap goes whole: flattening it would turn its text into markup
        const after = m ? tagEnd(html, m.index + 2 + name.length) : html.length;
        drop(lt, after);
        flattened++;
        i = after;
      } else stack.push({ name, kept: true });
      continue;
    }
    if (UNSTACKED.has(name) || html.charCodeAt(end - 2) === 47) continue;
    const kept = stack.length < limits.maxDepth;
    if (!kept) {
      drop(lt, end);
      flattened++;
    }
    stack.push({ name, kept });
  }
}
