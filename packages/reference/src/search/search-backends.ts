// Which backend answers a search_service value (issue 14; the README's table; D-search-backends): a direct adapter
// where one is configured (wikipedia, arxiv, github; hackernews for news), else the SearXNG instance when one is
// configured and has an engine for the value, else the local page index.
import type { PageParser } from "../engines/parse/parse-pool.ts";
import { createArxivBackend } from "./upstream/arxiv.ts";
import { createGithubBackend } from "./upstream/github.ts";
import { createHackernewsBackend } from "./upstream/hackernews.ts";
import { createSearxngBackend } from "./upstream/searxng.ts";
import type { SearchBackend } from "./upstream/upstream.ts";
import { createWikipediaBackend } from "./upstream/wikipedia.ts";

/** The upstreams a deployment configures (startReference options; `plumbline reference --searxng-url …`). */
export interface SearchUpstreams {
  searxngUrl?: string;
  /** may hold `{lang}`: https://{lang}.wikipedia.org */
  wikipediaUrl?: string;
  /** https://export.arxiv.org */
  arxivUrl?: string;
  /** https://api.github.com */
  githubApiUrl?: string;
  githubToken?: string;
  /** https://hn.algolia.com */
  hackernewsUrl?: string;
  /** per upstream request, body included (default 10 000) */
  timeoutMs?: number;
  /** bytes of one upstream answer read at most (default UPSTREAM_MAX_BYTES, 5 MiB); past it the call is a 502 */
  maxBytes?: number;
}

/** The public endpoints of the direct adapters, for `--public-search-apis` (never used unless asked for). */
export const PUBLIC_SEARCH_APIS: SearchUpstreams = {
  wikipediaUrl: "https://{lang}.wikipedia.org",
  arxivUrl: "https://export.arxiv.org",
  githubApiUrl: "https://api.github.com",
  hackernewsUrl: "https://hn.algolia.com",
};

export type BackendFor = (kind: "search" | "news", service: string) => SearchBackend | null;

/** `parser`: where an upstream's XML is parsed (the reference's worker pool, issue 38); in this thread when absent */
export function createBackendRouter(
  u: SearchUpstreams,
  now: () => number = Date.now,
  parser?: Pick<PageParser, "arxivFeed">,
): BackendFor {
  const timeoutMs = u.timeoutMs ?? 10_000;
  const maxBytes = u.maxBytes;
  const direct: Record<string, SearchBackend | undefined> = {
    "search:wikipedia": u.wikipediaUrl
      ? createWikipediaBackend({ baseUrl: u.wikipediaUrl, timeoutMs, maxBytes })
      : undefined,
    "search:arxiv": u.arxivUrl
      ? createArxivBackend({ baseUrl: u.arxivUrl, timeoutMs, maxBytes, now, parser })
      : undefined,
    "search:github": u.githubApiUrl
      ? createGithubBackend({ baseUrl: u.githubApiUrl, timeoutMs, maxBytes, token: u.githubToken })
      : undefined,
    "news:hackernews": u.hackernewsUrl
      ? createHackernewsBackend({ baseUrl: u.hackernewsUrl, timeoutMs, maxBytes })
      : undefined,
  };
  const searxng = u.searxngUrl ? createSearxngBackend({ baseUrl: u.searxngUrl, timeoutMs, maxBytes }) : null;
  return (kind, service) => direct[`${kind}:${service}`] ?? (searxng?.serves(kind, service) ? searxng : null) ?? null;
}
