// Small text builders shared by the engines: topic words from a query or a URL path, titles, slugs and prose.
import type { Rng } from "./rng.ts";
import { ADJECTIVES, FILLER_TOPICS, VERBS } from "./vocabulary.ts";

const STOP_WORDS = new Set(["a", "an", "and", "the", "of", "to", "in", "for", "on", "with", "how", "what", "is"]);

/** The meaningful words of a free-text query (lower case, at most 6). */
export function queryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}+#.]+/u)
    .map((w) => w.replace(/^\.+|\.+$/g, ""))
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
  return words.length ? words.slice(0, 6) : ["web"];
}

/** The topic words of a URL: those of its last worded path segment ("/blog/launch-day" → launch, day), else
 * the site name. */
export function urlWords(url: string): string[] {
  const u = new URL(url);
  let path = u.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: keep the raw text
  }
  const segments = path.split("/").map((seg) =>
    seg
      .split(/[-_.+\s]+/)
      .filter((w) => /\p{L}/u.test(w) && !/^(html?|php|aspx?)$/i.test(w))
      .map((w) => w.toLowerCase()),
  );
  const last = segments.filter((words) => words.length > 0).at(-1);
  return last ? last.slice(0, 6) : [siteName(u.hostname).toLowerCase()];
}

/** "docs.example.co.uk" → "Example" */
export function siteName(host: string): string {
  const parts = host.replace(/^www\./, "").split(".");
  // "example.co.uk": the second-level label is a registry's ("co"), the name is the one before it
  const idx = parts.length > 2 && parts[parts.length - 2].length <= 3 ? parts.length - 3 : parts.length - 2;
  const core = parts[Math.max(0, idx)];
  return titleCase(core.replace(/-/g, " "));
}

export function titleCase(text: string): string {
  return text.replace(/(^|\s)(\p{L})/gu, (_, sp: string, ch: string) => sp + ch.toUpperCase());
}

export function slug(words: readonly string[]): string {
  const s = words
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return s || "page";
}

/** One plain sentence about `topic`. */
export function sentence(rng: Rng, topic: string): string {
  const other = rng.pick(FILLER_TOPICS);
  const templates = [
    () => `This ${rng.pick(ADJECTIVES)} guide ${rng.pick(VERBS)} ${topic} and what it means for ${other}.`,
    () => `Most teams start with ${topic} before they look at ${other}.`,
    () => `The ${other} side of ${topic} is often overlooked, yet it decides the outcome.`,
    () => `Here is what changed in ${topic} over the last ${rng.int(2, 9)} years.`,
    () => `Experts agree that ${topic} works best when ${other} is planned early.`,
    () => `A short example shows ${topic} in practice, step by step.`,
    () => `Readers asked about ${topic}; the answer depends on ${other}.`,
  ];
  return rng.pick(templates)();
}

export function paragraph(rng: Rng, topic: string, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(rng, topic)).join(" ");
}
