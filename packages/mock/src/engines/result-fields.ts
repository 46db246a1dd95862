// The fields search results gained in the service's newer document (D-result-fields), synthetic and deterministic
// (drawn from a fork of the hit's generator, so the title, link and snippet of every hit stay what they were):
// `published_date` on every hit (a day for web engines, a UTC time for the sources that have one), and for
// `github` results `kind` with `stars` and `language` (repositories) or `num_comments` (issues, pull requests,
// discussions), for `hackernews` news `points`, `num_comments` and `story_url`, the article, while `link` becomes
// the discussion (when the site filter lets news.ycombinator.com through).
import type { Rng } from "./rng.ts";
import type { Hit, SearchKind } from "./search-result.ts";
import { SERVICE_HOSTS } from "./vocabulary.ts";

const LANGUAGES = ["TypeScript", "Rust", "Go", "Python", "C++", "Java", "Kotlin", "Zig"] as const;
const HN_HOST = "news.ycombinator.com";

export interface ResultFields {
  /** the result's link when the source changes it (a github issue, a Hacker News thread) */
  link?: string;
  fields: Record<string, unknown>;
}

const WINDOW_MINUTES = { day: 1440, week: 7 * 1440, month: 30 * 1440, year: 365 * 1440 } as const;

/**
 * The publication time of a hit: within `time_range` before `now` when the request names one (so a windowed
 * search answers what the window asks), else the hit's own day at a drawn time.
 */
function publishedAt(rng: Rng, hit: Hit, timeRange: string | undefined, now: () => Date): string {
  const window = WINDOW_MINUTES[timeRange as keyof typeof WINDOW_MINUTES];
  if (window) return new Date(now().getTime() - rng.int(1, window) * 60_000).toISOString().slice(0, 19);
  const hh = String(rng.int(0, 23)).padStart(2, "0");
  const mm = String(rng.int(0, 59)).padStart(2, "0");
  const ss = String(rng.int(0, 59)).padStart(2, "0");
  return `${hit.date}T${hh}:${mm}:${ss}`;
}

export function resultFields(
  rng: Rng,
  kind: SearchKind,
  p: { search_service?: string; time_range?: string },
  hit: Hit,
  allows: (host: string) => boolean,
  now: () => Date,
): ResultFields {
  const service = p.search_service;
  // news and the engines of one site carry a time of publication; web engines (and the reference works of
  // Wikipedia and IMDb) only a day
  const site = service === undefined ? undefined : SERVICE_HOSTS[service];
  const timed = kind === "news" || (site !== undefined && !/wikipedia|imdb/.test(site[0]));
  const at = publishedAt(rng, hit, p.time_range, now);
  const fields: Record<string, unknown> = { published_date: timed ? `${at}Z` : at.slice(0, 10) };
  if (kind === "search" && service === "github") {
    const what = rng.pick(["repo", "repo", "issue", "pr", "discussion"] as const);
    fields.kind = what;
    if (what === "repo") {
      fields.stars = rng.int(0, 60_000);
      if (rng.chance(0.9)) fields.language = rng.pick(LANGUAGES);
      return { fields };
    }
    fields.num_comments = rng.int(0, 250);
    const path = what === "pr" ? "pull" : what === "issue" ? "issues" : "discussions";
    return { link: `${hit.link}/${path}/${rng.int(1, 40_000)}`, fields };
  }
  if (kind === "news" && service === "hackernews" && allows(HN_HOST)) {
    fields.points = rng.int(1, 2_000);
    fields.num_comments = rng.int(0, 900);
    const textPost = rng.chance(0.1);
    fields.story_url = textPost ? "" : hit.link;
    return { link: `https://${HN_HOST}/item?id=${rng.int(30_000_000, 46_000_000)}`, fields };
  }
  return { fields };
}
