// Reading arXiv's Atom feed (fast-xml-parser): in the parse pool's workers (parse-tasks.ts), so the reference's
// event loop never loads the XML parser (arxiv.ts asks the pool).
import { XMLParser } from "fast-xml-parser";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (n) => n === "entry" || n === "link",
});

export interface ArxivEntry {
  id?: unknown;
  title?: unknown;
  summary?: unknown;
  published?: unknown;
  link?: Array<{ "@href"?: string; "@rel"?: string; "@type"?: string }>;
}

/**
 * The feed of an arXiv answer with its first `maxEntries` entries (arXiv sends no more than max_results; an answer
 * with more is not copied back whole), or null when it is not an Atom feed. A pure function: it runs in the pool.
 */
export function readArxivFeed(text: string, maxEntries = Number.POSITIVE_INFINITY): { entry?: ArxivEntry[] } | null {
  try {
    const feed = parser.parse(text, true)?.feed;
    if (!feed || typeof feed !== "object") return null;
    return Array.isArray(feed.entry) && feed.entry.length > maxEntries
      ? { ...feed, entry: feed.entry.slice(0, maxEntries) }
      : feed;
  } catch {
    return null;
  }
}
