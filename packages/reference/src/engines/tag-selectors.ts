// querySelectorAll and querySelector with a list of tag names ("p", "img,embed,object,iframe"), answered by a walk of
// the tree instead of by css-select (issue 12). linkedom compiles the selector anew at every call, and Readability
// asks such lists for nearly every node it weighs: the compiling allocated, and each compile made fresh closures that
// V8 optimised again and again (a crawl's parse kept the compiler threads busy long after warm-up, measured with
// perf: 70% of the helper threads' time). Any other selector goes to linkedom as before. Installed once, from
// html-document.ts; what it answers is checked against linkedom's own answer in tag-selectors.test.ts.
import { NodeList, parseHTML } from "linkedom";

const TAG_LIST = /^\s*[A-Za-z][A-Za-z0-9]*(?:\s*,\s*[A-Za-z][A-Za-z0-9]*)*\s*$/;
const lists = new Map<string, ReadonlySet<string> | null>();
const MAX_LISTS = 512;

/** A set of tag names (lower case) from a list of them ("p, div, h1"), for the walks that test membership. */
export const tagSet = (names: string): ReadonlySet<string> =>
  new Set(
    names
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean),
  );

/** The tag names of a selector that is only a list of them (lower case), else null. */
export function tagList(selectors: string): ReadonlySet<string> | null {
  let tags = lists.get(selectors);
  if (tags !== undefined) return tags;
  tags = TAG_LIST.test(selectors) ? tagSet(selectors) : null;
  if (lists.size < MAX_LISTS) lists.set(selectors, tags);
  return tags;
}

/**
 * An element's tag name in lower case: localName, as linkedom upper-cases tagName at every read, lowered because
 * linkedom keeps createElement("DIV")'s name as given.
 */
export const localTag = (el: Element): string => el.localName.toLowerCase();

/**
 * Each element under `root` in document order, not into a <template> (as linkedom's querySelectorAll), until `visit`
 * answers true. A loop, not a recursion: some callers parse upstream pages no guard has flattened.
 */
export function walkElements(root: Node, visit: (el: Element) => boolean): boolean {
  let el: Element | null = (root as unknown as ParentNode).firstElementChild;
  while (el) {
    if (visit(el)) return true;
    const down: Element | null = el.localName === "template" ? null : el.firstElementChild;
    if (down) {
      el = down;
      continue;
    }
    let up: Element | null = el;
    el = null;
    while (up) {
      const next: Element | null = up.nextElementSibling;
      if (next) {
        el = next;
        break;
      }
      const parent: Node | null = up.parentNode;
      up = parent === root || !parent ? null : (parent as Element);
    }
  }
  return false;
}

type Query = (this: unknown, selectors: string) => unknown;

/**
 * The method answering tag lists itself: `collect` sees each element in document order until it answers true,
 * then `result` gives the answer; anything else (other selectors, linkedom's internal calls on a bare range) goes
 * to linkedom's own method.
 */
function fastPath<R>(
  original: Query,
  fromDocument: boolean,
  start: () => { collect: (el: Element, tags: ReadonlySet<string>) => boolean; result: () => R },
): Query {
  return function (this: unknown, selectors: string) {
    const tags = typeof selectors === "string" ? tagList(selectors) : null;
    const self = this as (Node & ParentNode) | Document;
    if (!tags || !self || typeof (self as ParentNode).firstElementChild === "undefined")
      return original.call(this, selectors);
    const { collect, result } = start();
    const take = (el: Element) => collect(el, tags);
    if (fromDocument) {
      const top = (self as Document).documentElement;
      if (top && !take(top)) walkElements(top, take);
    } else walkElements(self as Node, take);
    return result();
  };
}

const fastAll = (original: Query, fromDocument: boolean) =>
  fastPath(original, fromDocument, () => {
    const out = new NodeList() as unknown as Element[];
    return {
      collect: (el, tags) => {
        if (tags.has(localTag(el))) out.push(el);
        return false;
      },
      result: () => out,
    };
  });

const fastOne = (original: Query, fromDocument: boolean) =>
  fastPath(original, fromDocument, () => {
    let found: Element | null = null;
    return {
      collect: (el, tags) => {
        if (tags.has(localTag(el))) found = el;
        return found !== null;
      },
      result: () => found,
    };
  });

/** The prototype in `object`'s chain that defines `name` itself. */
function owner(object: object, name: string): Record<string, unknown> | null {
  for (let p = Object.getPrototypeOf(object); p; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p, name)) return p;
  }
  return null;
}

let installed: boolean | undefined;
const originals = new Map<string, Query>();

/** linkedom's own method, for comparison in tests. */
export const linkedomQuery = (name: string): Query | undefined => originals.get(name);

/** Installs the tag-list fast path in linkedom (once); false when linkedom is not shaped as this expects. */
export function installTagSelectors(): boolean {
  if (installed !== undefined) return installed;
  const { document } = parseHTML("<html><body><p></p></body></html>");
  const element = document.querySelector("p") as object;
  const targets = [
    { proto: owner(element, "querySelectorAll"), name: "querySelectorAll", key: "element:all", doc: false },
    { proto: owner(element, "querySelector"), name: "querySelector", key: "element:one", doc: false },
    { proto: owner(document, "querySelectorAll"), name: "querySelectorAll", key: "document:all", doc: true },
    { proto: owner(document, "querySelector"), name: "querySelector", key: "document:one", doc: true },
  ];
  installed =
    targets.every((t) => t.proto && typeof t.proto[t.name] === "function") && targets[0].proto !== targets[2].proto;
  if (!installed) return false;
  for (const t of targets) {
    const original = (t.proto as Record<string, Query>)[t.name];
    originals.set(t.key, original);
    const value = t.name === "querySelectorAll" ? fastAll(original, t.doc) : fastOne(original, t.doc);
    Object.defineProperty(t.proto, t.name, { value, writable: true, configurable: true, enumerable: false });
  }
  return true;
}
