// The links of one page (interface-spec "POST /sitemap" 2-3: the fallback of `sitemap`, and all of `all`): every
// `<a href>` and `<area href>` made absolute against the page's URL and its `<base href>`, http(s) only, fragments
// stripped, each once, in document order; a bare `#fragment` points back at the page and is left out. Nothing beyond
// the page is fetched (rule 4).
import { absolutizeUrls } from "./html-clean.ts";
import { parseDocument } from "./html-document.ts";

export function pageLinks(html: string, pageUrl: string): string[] {
  const document = parseDocument(html);
  absolutizeUrls(document, pageUrl);
  const seen = new Set<string>();
  for (const el of document.querySelectorAll("a[href], area[href]")) {
    const href = el.getAttribute("href") ?? "";
    if (href.startsWith("#")) continue;
    let url: URL;
    try {
      url = new URL(href, pageUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    url.hash = "";
    seen.add(url.href);
  }
  return [...seen];
}
