// The page facts of D-crawl-metadata that live in the document head: description, language, published_time,
// site_name, canonical_url (each a string or null). Read before Readability, which rewrites the document.

export interface HeadMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  published_time: string | null;
  site_name: string | null;
  canonical_url: string | null;
}

function meta(document: Document, ...keys: string[]): string | null {
  for (const key of keys) {
    const el = document.querySelector(
      `meta[property="${key}" i], meta[name="${key}" i], meta[itemprop="${key}" i], meta[http-equiv="${key}" i]`,
    );
    const value = el?.getAttribute("content")?.trim();
    if (value) return value;
  }
  return null;
}

/** schema.org facts from JSON-LD blocks (Article, NewsArticle, WebPage, ...), first found wins. */
function jsonLd(document: Document): { published?: string; site?: string; description?: string } {
  const out: { published?: string; site?: string; description?: string } = {};
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? "");
    } catch {
      continue;
    }
    const graph = (data as { "@graph"?: unknown })?.["@graph"];
    for (const node of [data, ...(Array.isArray(data) ? data : []), ...(Array.isArray(graph) ? graph : [])]) {
      const n = node as { datePublished?: unknown; publisher?: { name?: unknown }; description?: unknown } | null;
      if (typeof n?.datePublished === "string") out.published ??= n.datePublished;
      if (typeof n?.publisher?.name === "string") out.site ??= n.publisher.name;
      if (typeof n?.description === "string") out.description ??= n.description;
    }
  }
  return out;
}

/** `en_US` (Open Graph) → `en-US` (BCP 47, as `lang` writes it). */
const bcp47 = (tag: string | null) => tag?.replace(/_/g, "-") ?? null;

function canonical(document: Document, pageUrl: string): string | null {
  const href = document.querySelector('link[rel~="canonical" i]')?.getAttribute("href") ?? meta(document, "og:url");
  if (!href) return null;
  try {
    const url = new URL(href, pageUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function readHeadMetadata(document: Document, pageUrl: string, contentLanguage?: string): HeadMetadata {
  const ld = jsonLd(document);
  const lang = document.documentElement?.getAttribute("lang")?.trim();
  return {
    title: meta(document, "og:title", "twitter:title") ?? (document.title.trim() || null),
    description: meta(document, "description", "og:description", "twitter:description") ?? ld.description ?? null,
    language:
      lang ||
      meta(document, "content-language", "dc.language") ||
      contentLanguage?.split(",")[0].trim() ||
      bcp47(meta(document, "og:locale")),
    published_time:
      meta(document, "article:published_time", "datePublished", "pubdate", "publishdate", "date", "dc.date") ??
      ld.published ??
      document.querySelector("article time[datetime], time[pubdate][datetime]")?.getAttribute("datetime") ??
      null,
    site_name: meta(document, "og:site_name", "application-name") ?? ld.site ?? null,
    canonical_url: canonical(document, pageUrl),
  };
}
