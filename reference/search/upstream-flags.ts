// The command-line form of the search upstreams (`plumbline reference --searxng-url URL …`), shared by the server
// command and `plumbline reference index`. A GitHub token is read from PLUMBLINE_GITHUB_TOKEN, not a flag, so it
// never shows in the process list.
import { PUBLIC_SEARCH_APIS, type SearchUpstreams } from "./search-backends.ts";

export const SEARCH_UPSTREAM_FLAGS = {
  "searxng-url": { type: "string" as const },
  "wikipedia-url": { type: "string" as const },
  "arxiv-url": { type: "string" as const },
  "github-api-url": { type: "string" as const },
  "hackernews-url": { type: "string" as const },
  "public-search-apis": { type: "boolean" as const, default: false },
  "upstream-timeout": { type: "string" as const },
};

export const SEARCH_UPSTREAM_HELP = `  --searxng-url URL       a SearXNG instance (JSON format enabled) for most search_service values
  --wikipedia-url URL     MediaWiki API base for search_service wikipedia; {lang} takes the request's language
                          (https://{lang}.wikipedia.org)
  --arxiv-url URL         arXiv API base for search_service arxiv (https://export.arxiv.org)
  --github-api-url URL    GitHub REST API base for search_service github (https://api.github.com);
                          token from $PLUMBLINE_GITHUB_TOKEN
  --hackernews-url URL    Algolia HN API base for news search_service hackernews (https://hn.algolia.com)
  --public-search-apis    use the public endpoints above for the direct adapters not given explicitly
  --upstream-timeout MS   per upstream request (default 10000)
                          A search_service value with no upstream is answered by the local index of fetched
                          pages (D-search-service-fallback); README "Search backends".`;

type Values = { [K in keyof typeof SEARCH_UPSTREAM_FLAGS]?: string | boolean };

function httpUrl(flag: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !/^https?:\/\/[^\s/]+/.test(v)) throw new Error(`--${flag} takes an http(s) URL`);
  return v;
}

export function parseSearchUpstreams(values: Values, env: NodeJS.ProcessEnv = process.env): SearchUpstreams {
  const timeout = values["upstream-timeout"];
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 120_000))
    throw new Error("--upstream-timeout takes milliseconds, 1..120000");
  const base = values["public-search-apis"] ? PUBLIC_SEARCH_APIS : {};
  return {
    ...base,
    searxngUrl: httpUrl("searxng-url", values["searxng-url"]),
    wikipediaUrl: httpUrl("wikipedia-url", values["wikipedia-url"]) ?? base.wikipediaUrl,
    arxivUrl: httpUrl("arxiv-url", values["arxiv-url"]) ?? base.arxivUrl,
    githubApiUrl: httpUrl("github-api-url", values["github-api-url"]) ?? base.githubApiUrl,
    hackernewsUrl: httpUrl("hackernews-url", values["hackernews-url"]) ?? base.hackernewsUrl,
    githubToken: env.PLUMBLINE_GITHUB_TOKEN || undefined,
    timeoutMs,
  };
}
