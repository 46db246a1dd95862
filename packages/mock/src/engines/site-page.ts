// The synthetic page behind a URL, shared by crawl and deepcrawl so that both tell the same story about the
// same address: a title and Markdown about the URL's path words, and the facts a Readability-style extractor
// reports (D-crawl-metadata).
import { pageMarkdown } from "./page-text.ts";
import { createRng } from "./rng.ts";
import { siteName, titleCase, urlWords } from "./text.ts";

export interface SitePage {
  title: string;
  markdown: string;
  description: string;
  siteName: string;
  language: string;
  publishedTime: string;
  canonicalUrl: string;
}

export function sitePage(seed: number, url: string): SitePage {
  const u = new URL(url);
  const rng = createRng(seed, "page", u.origin + u.pathname);
  const site = siteName(u.hostname);
  const words = urlWords(url);
  const title = u.pathname === "/" || u.pathname === "" ? `Welcome to ${site}` : titleCase(words.join(" "));
  const text = pageMarkdown(rng, title, words, u.origin);
  const published = new Date(Date.UTC(rng.int(2018, 2026), rng.int(0, 11), rng.int(1, 28), rng.int(0, 23)));
  return {
    title,
    markdown: text.markdown,
    description: text.description,
    siteName: site,
    language: "en",
    publishedTime: published.toISOString(),
    canonicalUrl: `${u.origin}${u.pathname}`,
  };
}
