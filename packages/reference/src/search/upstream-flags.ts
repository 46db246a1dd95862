// The command-line form of the search upstreams (`plumbline reference --searxng-url URL …`, declared in
// reference/cli.ts) as startReference's `searchUpstreams`. A GitHub token is read from PLUMBLINE_GITHUB_TOKEN, not a
// flag, so it never shows in the process list.
import { PUBLIC_SEARCH_APIS, type SearchUpstreams } from "./search-backends.ts";

export interface SearchUpstreamFlagValues {
  searxngUrl?: string;
  wikipediaUrl?: string;
  arxivUrl?: string;
  githubApiUrl?: string;
  hackernewsUrl?: string;
  publicSearchApis?: boolean;
  upstreamTimeout?: number;
}

export function parseSearchUpstreams(
  values: SearchUpstreamFlagValues,
  env: NodeJS.ProcessEnv = process.env,
): SearchUpstreams {
  const base = values.publicSearchApis ? PUBLIC_SEARCH_APIS : {};
  return {
    ...base,
    searxngUrl: values.searxngUrl,
    wikipediaUrl: values.wikipediaUrl ?? base.wikipediaUrl,
    arxivUrl: values.arxivUrl ?? base.arxivUrl,
    githubApiUrl: values.githubApiUrl ?? base.githubApiUrl,
    hackernewsUrl: values.hackernewsUrl ?? base.hackernewsUrl,
    githubToken: env.PLUMBLINE_GITHUB_TOKEN || undefined,
    timeoutMs: values.upstreamTimeout,
  };
}
