// One HTML parser for the engines: linkedom, a DOM fast enough to run Readability on every crawl (issue 5).
import { parseHTML } from "linkedom";
import { installLazyListeners } from "./lazy-listeners.ts";
import { installTagSelectors } from "./tag-selectors.ts";

// every DOM of the engines is made here: nodes get their listener maps on first use (lazy-listeners.ts), lists of
// tag names are looked up without css-select (tag-selectors.ts); both for issue 12
installLazyListeners();
installTagSelectors();

/** A DOM document of `html`; a bare fragment is wrapped, as linkedom needs a document element to hang it on. */
export function parseDocument(html: string): Document {
  const full = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  return parseHTML(full).document as unknown as Document;
}
