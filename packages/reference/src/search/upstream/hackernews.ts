// Hacker News through its Algolia search API (`/api/v1/search`, stories only): relevance with recency, paged by
// `page` (from 0) and `hitsPerPage`; the time range is a `created_at_i` numeric filter. As D-result-fields has it,
// `link` is the story's discussion page and `story_url` the article it submitted (empty for a text post: Ask HN,
// Show HN without a link), with its `points` and `num_comments`; a story without an id links to its article.
import type { EngineResult } from "@plumbline-kit/platform/engines";
import {
  cleanUrl,
  countOf,
  fetchUpstreamJson,
  isoOrNull,
  plainText,
  type SearchBackend,
  type UpstreamAnswer,
  under,
} from "./upstream.ts";

const ITEM = "https://news.ycombinator.com/item?id=";

interface Story {
  objectID?: unknown;
  title?: unknown;
  url?: unknown;
  story_text?: unknown;
  created_at?: unknown;
  points?: unknown;
  num_comments?: unknown;
}

export function createHackernewsBackend(o: { baseUrl: string; timeoutMs: number; maxBytes?: number }): SearchBackend {
  return {
    name: "Hacker News",
    async search(q): Promise<EngineResult<UpstreamAnswer>> {
      const url = under(o.baseUrl, "/api/v1/search");
      url.searchParams.set("query", q.query);
      url.searchParams.set("tags", "story");
      url.searchParams.set("hitsPerPage", String(q.maxResults));
      url.searchParams.set("page", String(q.page - 1));
      if (q.since) url.searchParams.set("numericFilters", `created_at_i>=${Math.floor(Date.parse(q.since) / 1000)}`);
      const r = await fetchUpstreamJson("Hacker News", url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
      if (!r.ok) return r;
      const stories = ((r.value as { hits?: Story[] })?.hits ?? []) as Story[];
      const hits = stories.flatMap((s) => {
        const id = typeof s.objectID === "string" && s.objectID ? s.objectID : null;
        const article = cleanUrl(s.url);
        const discussion = id ? cleanUrl(`${ITEM}${encodeURIComponent(id)}`) : null;
        const link = discussion ?? article;
        if (!link || typeof s.title !== "string") return [];
        const text = plainText(s.story_text);
        const snippet =
          text || `${Number(s.points ?? 0)} points and ${Number(s.num_comments ?? 0)} comments on Hacker News`;
        const points = countOf(s.points);
        const comments = countOf(s.num_comments);
        const fields = {
          ...(points !== undefined ? { points } : {}),
          ...(comments !== undefined ? { num_comments: comments } : {}),
          ...(discussion ? { story_url: article ?? "" } : {}),
        };
        return [{ title: s.title, link, snippet, date: isoOrNull(s.created_at), fields }];
      });
      return { ok: true, value: { hits, images: [] } };
    },
  };
}
