// How /ask reads a plain-language request (D-ask-intent), written once for the mock and the reference: platform
// phrases choose the engines, time phrases the publication window, and what is left is the keywords. Results are
// then merged and ranked by the rules of D-ask-relevance (mergeAskResults).
import type { LiveSchemas } from "@plumbline-kit/contract";

type TimeRange = NonNullable<LiveSchemas["AskIntent"]["time_range"]>;

export interface AskIntent {
  search_query: string;
  sources: string[];
  time_range: TimeRange | null;
}

/** The default web engine: searched alone when no platform is named, and after the named ones otherwise. */
export const ASK_WEB_ENGINE = "google";
/** At most this many engines are searched (the published limit). */
export const ASK_MAX_SOURCES = 5;
/** At most this many results are answered (D-ask-relevance). */
export const ASK_MAX_RESULTS = 20;
/** Results scoring below this are left out. */
export const ASK_MIN_RELEVANCE = 0.5;

// phrase → engine; the first phrase of each engine found in the request names it (order of appearance)
const PLATFORM_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:on|from|in) github\b|\bgithub\b|\brepos?\b|\brepositor(?:y|ies)\b/i, "github"],
  [/\b(?:on|from|in) reddit\b|\breddit\b|\bsubreddits?\b/i, "reddit"],
  [/\b(?:on|from) hacker ?news\b|\bhacker ?news\b|\bon hn\b/i, "hackernews"],
  [/\b(?:research )?papers?\b|\barxiv\b|\bpreprints?\b/i, "arxiv"],
  [/\b(?:on|from) youtube\b|\byoutube\b|\bvideos?\b/i, "youtube"],
  [/\b(?:on|from) (?:x|twitter)\b|\btweets?\b/i, "x"],
  [/\b(?:on|from) wikipedia\b|\bwikipedia\b/i, "wikipedia"],
];

// window → its phrases, the shortest window first (the first found wins)
const TIME_PHRASES: Readonly<Record<TimeRange, RegExp>> = {
  day: /\b(?:today|past day|last day|last 24 hours)\b/i,
  week: /\b(?:this week|past week|last week|last 7 days)\b/i,
  month: /\b(?:this month|past month|last month|last 30 days)\b/i,
  year: /\b(?:this year|past year|last year)\b/i,
};

/** The engines, window and keywords a request calls for (D-ask-intent). Pure: the same words, the same intent. */
export function readAskIntent(query: string): AskIntent {
  let rest = query;
  const found: Array<{ at: number; source: string }> = [];
  for (const [pattern, source] of PLATFORM_PHRASES) {
    const m = pattern.exec(rest);
    if (!m) continue;
    found.push({ at: m.index, source });
    rest = rest.replace(new RegExp(pattern.source, "gi"), " ");
  }
  let time_range: TimeRange | null = null;
  for (const [range, pattern] of Object.entries(TIME_PHRASES) as Array<[TimeRange, RegExp]>) {
    if (!pattern.test(rest)) continue;
    time_range ??= range;
    rest = rest.replace(new RegExp(pattern.source, "gi"), " ");
  }
  const named = found.sort((a, b) => a.at - b.at).map((f) => f.source);
  const sources = [...named, ASK_WEB_ENGINE].slice(0, ASK_MAX_SOURCES);
  // leftover connectives at the edges ("what is new about X on", "papers about X") are not keywords
  const keywords = rest
    .replace(/[?!.,;:]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(
      /^(?:(?:find|show|search|look for|what|what's|are|is|the|latest|recent|new|about|for|on|from|in|me)\s+)+/i,
      "",
    )
    .replace(/(?:\s+(?:about|for|on|from|in|the|of))+$/i, "")
    .trim();
  return { search_query: keywords || query.trim() || query, sources, time_range };
}

/** A link as D-ask-relevance compares them: scheme, a leading www., a trailing slash and the fragment ignored. */
export function askLinkKey(link: string): string {
  try {
    const u = new URL(link);
    const host = u.host.toLowerCase().replace(/^www\./, "");
    return `${host}${u.pathname.replace(/\/+$/, "")}${u.search}`;
  } catch {
    return link;
  }
}

/**
 * The answered results (D-ask-relevance): each scored result of every engine (in engine order), duplicates merged
 * (the best score, the first engine's fields), below 0.5 left out, two decimals, best first (ties in engine order),
 * at most 20.
 */
export function mergeAskResults(scored: Array<LiveSchemas["AskResult"]>): Array<LiveSchemas["AskResult"]> {
  const byKey = new Map<string, { result: LiveSchemas["AskResult"]; order: number }>();
  scored.forEach((r, order) => {
    const relevance = Math.round(Math.min(1, Math.max(0, r.relevance)) * 100) / 100;
    const key = askLinkKey(r.link);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { result: { ...r, relevance }, order });
    else if (relevance > seen.result.relevance) seen.result = { ...seen.result, relevance };
  });
  return [...byKey.values()]
    .filter((e) => e.result.relevance >= ASK_MIN_RELEVANCE)
    .sort((a, b) => b.result.relevance - a.result.relevance || a.order - b.order)
    .slice(0, ASK_MAX_RESULTS)
    .map((e) => e.result);
}
