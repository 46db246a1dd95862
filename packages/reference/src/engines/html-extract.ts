// An HTML page → its title, readable Markdown and head metadata (interface-spec "POST /crawl": title and body as clean
// text; D-crawl-content, D-crawl-metadata). @mozilla/readability over linkedom (issue 5: ~6x faster than jsdom with
// the same output), boilerplate removed first (html-clean.ts), the article node named by structured data when there is
// one (article-hint.ts), what is not the article removed from Readability's choice (article-rules.ts; issue 13), Markdown
// by turndown (html-markdown.ts). A pure synchronous function of the page, so it can run in a worker thread as is.
import { Readability } from "@mozilla/readability";
import { structuredArticleNode } from "./article-hint.ts";
import { applyArticleRules } from "./article-rules.ts";
import { wordCountOf } from "./article-text.ts";
import { absolutizeUrls, removeBoilerplate } from "./html-clean.ts";
import { parseDocument } from "./html-document.ts";
import { toMarkdown } from "./html-markdown.ts";
import { type HeadMetadata, readHeadMetadata } from "./html-metadata.ts";

export interface ExtractedPage {
  title: string;
  markdown: string;
  /** the article's pictures (absolute http(s) URLs, at most 20), which the text leaves out */
  images: string[];
  metadata: Omit<HeadMetadata, "title">;
}

/** The page's own name when Readability finds none: the last path segment, else the host. */
function fallbackTitle(pageUrl: string): string {
  const u = new URL(pageUrl);
  return decodeURIComponent(u.pathname.split("/").filter(Boolean).at(-1) ?? "") || u.hostname;
}

export interface ExtractOptions {
  /**
   * rules to leave out, by name (an article rule of article-rules.ts, "title-repeat" or "structured-data"): how the
   * README's ablation table is measured; none by default
   */
  skipRules?: ReadonlySet<string>;
}

const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");

/**
 * The cleaned article: the rules of article-rules.ts run on what Readability kept, and a heading that repeats the
 * title goes (the content opens with the title as its heading).
 */
function cleanArticle(contentHtml: string, title: string, skip: ReadonlySet<string> = new Set()): Element {
  const body = parseDocument(contentHtml).body as Element;
  const before = wordCountOf(body);
  applyArticleRules(body, skip);
  // rules that together took most of the text misread this page: keep Readability's choice as it was
  if (wordCountOf(body) < before * 0.4) return parseDocument(contentHtml).body as Element;
  const name = words(title);
  if (!skip.has("title-repeat") && name) {
    for (const h of body.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
      const text = words(h.textContent ?? "");
      if (text && (text === name || (name.startsWith(`${text} `) && text.length >= name.length / 2))) h.remove();
    }
  }
  return body;
}

const MAX_IMAGES = 20;

/**
 * The pictures of what was kept as the article (URLs absolutized already), before the rules leave them out of the
 * text: crawl metadata carries them (D-crawl-metadata), and the local search index answers `image: true` with them.
 */
function articleImages(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/<img\b[^>]*?\bsrc\s*=\s*"([^"]+)"/gi)) {
    const src = m[1].replaceAll("&amp;", "&");
    if (/^https?:\/\//i.test(src)) out.add(src);
    if (out.size >= MAX_IMAGES) break;
  }
  return [...out];
}

export function extractHtml(html: string, pageUrl: string, contentLanguage?: string): ExtractedPage {
  return extractHtmlWith(html, pageUrl, contentLanguage, {});
}

export function extractHtmlWith(
  html: string,
  pageUrl: string,
  contentLanguage: string | undefined,
  options: ExtractOptions,
): ExtractedPage {
  const document = parseDocument(html);
  const { title: headTitle, ...metadata } = readHeadMetadata(document, pageUrl, contentLanguage);
  absolutizeUrls(document, pageUrl);
  removeBoilerplate(document);
  const bodyHtml = document.body?.innerHTML ?? "";
  const hint = options.skipRules?.has("structured-data") ? null : structuredArticleNode(document);
  if (hint && document.body) {
    hint.remove();
    while (document.body.firstChild) document.body.firstChild.remove();
    document.body.append(hint);
  }
  // Readability keeps what scores as the article; on short pages it can find nothing, then the cleaned body stands
  // keepClasses: a code block's `language-*` class names the fence's language
  const article = new Readability(document, { charThreshold: 200, keepClasses: true }).parse();
  const useArticle = Boolean(article?.textContent?.trim());
  const title = (article?.title || headTitle || "").trim() || fallbackTitle(pageUrl);
  const contentHtml = useArticle ? (article?.content ?? "") : bodyHtml;
  let markdown = toMarkdown(useArticle ? cleanArticle(contentHtml, title, options.skipRules) : bodyHtml);
  // Readability drops the h1 that repeats the title; the content still opens with it (as the mock's pages do)
  if (markdown && !markdown.startsWith("# ")) markdown = `# ${title}\n\n${markdown}`;
  return {
    title,
    markdown,
    images: articleImages(contentHtml),
    metadata: {
      ...metadata,
      description: metadata.description ?? (article?.excerpt?.trim() || null),
      language: metadata.language ?? article?.lang ?? null,
      published_time: metadata.published_time ?? article?.publishedTime ?? null,
      site_name: metadata.site_name ?? article?.siteName ?? null,
    },
  };
}
