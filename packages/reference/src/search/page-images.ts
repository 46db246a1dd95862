// image: true on the local index: the images of the matched pages, read from their Markdown (`![alt](url)`, as the
// crawl writes every image it keeps), absolute http(s) URLs only, each once.
import { cleanUrl } from "./upstream/upstream.ts";

/** The pictures a store kept for a page (a JSON array), [] when none or unreadable. */
export function imageList(stored: string | null): string[] {
  try {
    const v = JSON.parse(stored ?? "[]");
    return Array.isArray(v) ? v.filter((u): u is string => typeof u === "string") : [];
  } catch {
    return [];
  }
}

export function imagesOf(markdown: string, pageUrl: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const url = cleanUrl(m[1], pageUrl);
    if (url && !url.startsWith("data:")) out.push(url);
  }
  return out;
}

export function uniqueImages(lists: string[][], max: number): string[] {
  return [...new Set(lists.flat())].slice(0, max);
}
