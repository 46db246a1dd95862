// Whether a page's static HTML runs any script: without one, a browser renders exactly the text the static fetch
// already has, so the crawl's fallback (issue 5, `enableFallback`) would cost a Chromium render (about 1 s) for
// nothing. Short static pages are common (a login stub, a 404-like notice, a terse landing page); only those that
// could write their text from script are worth rendering. Data blocks (JSON-LD, templates, import maps) do not run.

const SCRIPT_TAG = /<script\b([^>]*)>/gi;
const TYPE_ATTR = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
/** the script types a browser executes (HTML "JavaScript MIME type essence match", plus module) */
const EXECUTABLE = /^(?:|module|(?:text|application)\/(?:x-)?(?:javascript|ecmascript)|text\/(?:jscript|livescript))$/i;
/** inline event handlers and javascript: URLs also run code that can write the page */
const INLINE_CODE = /\son(?:load|DOMContentLoaded)\s*=|\bhref\s*=\s*["']?\s*javascript:/i;

export function runsScript(html: string): boolean {
  for (const m of html.matchAll(SCRIPT_TAG)) {
    const t = TYPE_ATTR.exec(m[1]);
    const type = (t ? (t[1] ?? t[2] ?? t[3]) : "").trim().split(";")[0].trim();
    if (EXECUTABLE.test(type)) return true;
  }
  return INLINE_CODE.test(html);
}
