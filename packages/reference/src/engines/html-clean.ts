// Boilerplate removed before Readability runs (D-crawl-content: no navigation, footer, cookie banner, script or style
// text). Readability scores paragraphs, and a short article can lose to a cookie notice, so what is never content
// goes first. URLs are made absolute here too, as Markdown links leave the page they were written for.

/** Elements that never hold the readable text of a page. */
const NEVER = [
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "canvas",
  "svg",
  "nav",
  "footer",
  "dialog",
  "[role=navigation]",
  "[role=contentinfo]",
  "[role=dialog]",
  "[role=alertdialog]",
  "[aria-modal=true]",
  "[hidden]",
].join(",");

/** Site chrome, removed when it stands outside the main content (an article's own header keeps its h1). */
const CHROME = "header, aside, [role=banner], [role=complementary], [role=search]";
const CONTENT = "main, article, [role=main]";

const CONSENT_NAME = /cookie|consent|gdpr|onetrust|didomi|usercentrics|cookiebot|\bcmp\b|cc-window|cc-banner/i;
const CONSENT_TEXT = /\bcookies?\b|\bconsent\b/i;
/**
 * A consent notice is short: one named like one (id, class, label) up to 1500 characters; an unnamed one only when
 * it is under 600 characters, has a button, no heading and stands outside the main content. Anything longer that
 * talks about cookies is more likely an article about them.
 */
function isConsentNotice(el: Element): boolean {
  const text = el.textContent ?? "";
  if (text.length > 1500) return false;
  if (CONSENT_NAME.test(`${el.id} ${el.getAttribute("class") ?? ""} ${el.getAttribute("aria-label") ?? ""}`))
    return true;
  if (text.length > 600 || !CONSENT_TEXT.test(text) || el.closest(CONTENT) !== null) return false;
  const hasControl = el.querySelector("button, [role=button], input[type=button], input[type=submit]") !== null;
  return hasControl && el.querySelector("h1, h2, h3, h4, h5, h6") === null;
}

export function removeBoilerplate(document: Document): void {
  for (const el of [...document.querySelectorAll(NEVER)]) el.remove();
  for (const el of [...document.querySelectorAll(CHROME)]) if (!el.closest(CONTENT)) el.remove();
  for (const el of [...document.querySelectorAll("div, section, aside, form, p, span")]) {
    if (el.isConnected && isConsentNotice(el)) el.remove();
  }
}

function absolute(value: string, base: string): string | null {
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
}

/** Resolves href/src against the page's URL (and its `<base href>`), the address links are read from. */
export function absolutizeUrls(document: Document, pageUrl: string): string {
  const declared = document.querySelector("base[href]")?.getAttribute("href");
  const base = (declared && absolute(declared, pageUrl)) || pageUrl;
  for (const [selector, attr] of [
    ["a[href], area[href]", "href"],
    ["img[src], source[src], video[src], audio[src]", "src"],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const value = el.getAttribute(attr) ?? "";
      const abs = value.startsWith("#") || value.startsWith("javascript:") ? null : absolute(value, base);
      if (abs) el.setAttribute(attr, abs);
    }
  }
  return base;
}
