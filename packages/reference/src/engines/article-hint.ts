// Structured data that names the article's node (issue 13: JSON-LD articleBody, microdata, <article> may guide the
// choice): when the page marks one node as its article body, Readability looks inside that node only, so a feed of
// other stories, a comment thread or a sidebar cannot outscore it. A hint is trusted only when it is unambiguous
// and holds most of the text the page says its article has.
import { textOf, wordCountOf } from "./article-text.ts";

const MIN_WORDS = 80;

/** The text of JSON-LD `articleBody`, when the page has exactly one. */
function jsonLdBody(document: Document): string | null {
  const bodies: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== "object" || depth > 6) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    const body = (node as { articleBody?: unknown }).articleBody;
    if (typeof body === "string" && body.trim()) bodies.push(body);
    for (const key of ["@graph", "mainEntity", "mainEntityOfPage"])
      visit((node as Record<string, unknown>)[key], depth + 1);
  };
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      visit(JSON.parse(script.textContent ?? ""), 0);
    } catch {
      // a broken block says nothing
    }
  }
  return bodies.length === 1 ? bodies[0] : null;
}

const tokenSet = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Share of the words of `expected` found in `el` (a rough match: vocabulary, not order). */
function covers(el: Element, expected: Set<string>): number {
  if (expected.size === 0) return 0;
  const have = tokenSet(textOf(el));
  let n = 0;
  for (const w of expected) if (have.has(w)) n++;
  return n / expected.size;
}

/**
 * The node structured data names as the article body: the one microdata `itemprop=articleBody` element, else the one
 * `<article>` of the page; with JSON-LD `articleBody` the candidate must hold most of its words. Null when nothing
 * is marked, the marks disagree, or the node is too short to be the whole article.
 */
export function structuredArticleNode(document: Document): Element | null {
  const body = document.body;
  if (!body) return null;
  const marked = [...body.querySelectorAll('[itemprop~="articleBody" i]')];
  const articles = [...body.querySelectorAll("article")].filter((a) => !a.parentElement?.closest("article"));
  const candidate = marked.length === 1 ? marked[0] : marked.length === 0 && articles.length === 1 ? articles[0] : null;
  if (!candidate || wordCountOf(candidate) < MIN_WORDS) return null;
  const ld = jsonLdBody(document);
  if (ld && covers(candidate, tokenSet(ld)) < 0.8) return null;
  return candidate;
}
