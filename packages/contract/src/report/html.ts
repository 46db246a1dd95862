// The one escaper of text put into HTML, SVG or XML by shipped code: the report pages (conformance, fuzz, gate, proxy),
// the load report's SVG charts, the JUnit writer (junit.ts re-exports it as xmlEscape), the reference's docs and
// account pages and the mock's screenshot label. Self-contained: no import outside spec/.

// XML 1.0 admits tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD and U+10000 upwards: everything else (the other C0
// controls, U+FFFE/U+FFFF, a lone surrogate) makes the whole file unparseable, and CI dashboards then drop it.
// A target's bytes end up in failure messages, so they are dropped here, whatever the caller passes. (HTML5 forbids
// the same controls as parse errors; &apos; is one of its named references.)
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text safe in XML and HTML character data and attribute values: forbidden characters dropped, markup escaped. */
export function htmlEscape(s: unknown): string {
  return String(s)
    .replace(NOT_XML, "")
    .replace(/[&<>"']/g, (c) => ENTITY[c] as string);
}

/** The same escaper, named for XML writers. */
export const xmlEscape: (s: string) => string = htmlEscape;
