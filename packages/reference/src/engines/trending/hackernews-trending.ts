// Hacker News trending (D-trending-platforms) from its public Firebase API: /v0/topstories.json lists ids in rank
// order, /v0/item/{id}.json each story. A link story has no summary (no `description`, D-trending-description); a
// self post (Ask HN)
// links to its discussion and its text, tags stripped, is the description. Dead, deleted and non-story items are
// skipped, so a few more ids than wanted are read.
import type { Schemas } from "@plumbline-kit/contract";
import { trendingResult } from "@plumbline-kit/platform/trending-result";

type TrendingResult = Schemas["TrendingResult"];

export interface HnItem {
  id: number;
  type?: string;
  title?: string;
  url?: string;
  text?: string;
  dead?: boolean;
  deleted?: boolean;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#x27": "'",
  "#39": "'",
  "#x2F": "/",
};

function plainText(html: string): string {
  return html
    .replace(/<p>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => ENTITIES[e] ?? m)
    .replace(/\s+/g, " ")
    .trim();
}

export function hnDiscussionUrl(id: number): string {
  return `https://news.ycombinator.com/item?id=${id}`;
}

/** The trending entry of one item, or null when it is not a live story. */
export function hnResult(item: HnItem | null): TrendingResult | null {
  if (!item || item.dead || item.deleted || (item.type && item.type !== "story" && item.type !== "job")) return null;
  if (!item.title) return null;
  const text = item.text ? plainText(item.text) : "";
  const description = text.length > 300 ? `${text.slice(0, 297)}...` : text;
  return trendingResult(item.title, item.url || hnDiscussionUrl(item.id), description);
}
