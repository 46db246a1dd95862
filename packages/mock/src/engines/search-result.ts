// One synthetic search or news hit: a title, link and snippet about the query words, on a host chosen by the
// site filter. Each hit is a function of its global position (page and max_results pick which positions a
// response shows), so page 2 continues page 1 instead of repeating it.
import { pageMarkdown } from "./page-text.ts";
import type { Rng } from "./rng.ts";
import { sentence, siteName, slug, titleCase } from "./text.ts";
import { ADJECTIVES, FILLER_TOPICS, NEWS_SECTIONS } from "./vocabulary.ts";

export type SearchKind = "search" | "news";

export interface Hit {
  title: string;
  link: string;
  snippet: string;
  host: string;
  date: string;
}

export function buildHit(rng: Rng, kind: SearchKind, words: readonly string[], host: string, position: number): Hit {
  const q = words.join(" ");
  const Q = titleCase(q);
  const other = rng.pick(FILLER_TOPICS);
  const year = rng.int(2019, 2026);
  const day = new Date(Date.UTC(year, rng.int(0, 11), rng.int(1, 28)));
  const date = day.toISOString().slice(0, 10);
  const title = kind === "news" ? newsTitle(rng, q, Q, other) : webTitle(rng, Q, other, host, year);
  const snippet = kind === "news" ? `${date} — ${sentence(rng, q)}` : sentence(rng, q);
  return { title, link: `https://${host}${hitPath(rng, kind, words, host, date, position)}`, snippet, host, date };
}

function webTitle(rng: Rng, Q: string, other: string, host: string, year: number): string {
  if (host.endsWith("wikipedia.org")) return `${Q} - Wikipedia`;
  return rng.pick([
    () => `${Q}: A ${titleCase(rng.pick(ADJECTIVES))} Guide`,
    () => `What Is ${Q}? Explained Simply`,
    () => `${Q} | ${siteName(host)}`,
    () => `${Q} and ${titleCase(other)}: What You Need to Know`,
    () => `Getting Started with ${Q}`,
    () => `Top ${rng.int(5, 15)} ${Q} Tips for ${year}`,
    () => `Understanding ${Q} (${year} Edition)`,
  ])();
}

function newsTitle(rng: Rng, q: string, Q: string, other: string): string {
  return rng.pick([
    () => `${Q}: what we know so far`,
    () => `${Q} — live updates`,
    () => `Officials weigh ${q} as ${other} concerns grow`,
    () => `Analysis: why ${q} matters for ${other}`,
    () => `${Q} talks resume amid ${other} questions`,
    () => `Markets react to latest ${q} news`,
  ])();
}

function hitPath(rng: Rng, kind: SearchKind, words: readonly string[], host: string, date: string, n: number) {
  const s = slug(words);
  if (kind === "news") return `/${rng.pick(NEWS_SECTIONS)}/${date.replace(/-/g, "/")}/${s}-${n + 1}`;
  if (host.endsWith("wikipedia.org")) {
    // query words go into the path percent-encoded: a link must stay a URI whatever the query (found by the fuzzer)
    const article = encodeURIComponent(titleCase(words.join(" ")).replace(/ /g, "_"));
    if (n === 0) return `/wiki/${article}`;
    // each position its own article: "Topic_(Security)", …, then numbered once the qualifiers run out
    const qualifier = titleCase(FILLER_TOPICS[(n - 1) % FILLER_TOPICS.length]);
    return `/wiki/${article}_(${qualifier}${n > FILLER_TOPICS.length ? `_${n}` : ""})`;
  }
  if (host === "github.com")
    return `/${rng.pick(["awesome", "oss", "labs"])}-${encodeURIComponent(words[0])}/${s}${n > 0 ? `-${n + 1}` : ""}`;
  if (host.endsWith("youtube.com")) return `/watch?v=${rng.int(1e9, 9e9).toString(36)}${n}`;
  if (host === "stackoverflow.com") return `/questions/${rng.int(1e6, 8e7)}/${s}`;
  if (host === "arxiv.org")
    return `/abs/${rng.int(19, 26)}${String(rng.int(1, 12)).padStart(2, "0")}.${rng.int(10000, 99999)}`;
  if (host.endsWith("reddit.com"))
    return `/r/${encodeURIComponent(words[0])}/comments/${rng.int(1e6, 9e6).toString(36)}/${s}`;
  return `/${rng.pick(["blog", "guides", "articles", "docs", "learn"])}/${s}${n > 0 ? `-${n + 1}` : ""}`;
}

/** The Markdown text a crawled hit carries in `content` (crawl_results). */
export function hitContent(rng: Rng, hit: Hit, words: readonly string[]): string {
  return pageMarkdown(rng, hit.title, words, `https://${hit.host}`).markdown;
}
