// GitHub's repository search (REST `/search/repositories`). GitHub pages by `page` and `per_page` as the contract
// does; the time range becomes a `pushed:>=` qualifier; images are the owners' avatars. Each result is a repository
// (`kind: repo`) with its `stars` and main `language` when GitHub names one (D-result-fields). A token (optional, for
// the higher rate limit) is sent as a Bearer header and never appears in messages.
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

interface Repo {
  full_name?: unknown;
  html_url?: unknown;
  description?: unknown;
  pushed_at?: unknown;
  updated_at?: unknown;
  owner?: { avatar_url?: unknown };
  stargazers_count?: unknown;
  language?: unknown;
}

export function createGithubBackend(o: {
  baseUrl: string;
  timeoutMs: number;
  maxBytes?: number;
  token?: string;
}): SearchBackend {
  return {
    name: "GitHub",
    async search(q): Promise<EngineResult<UpstreamAnswer>> {
      const url = under(o.baseUrl, "/search/repositories");
      const since = q.since ? ` pushed:>=${q.since.slice(0, 10)}` : "";
      url.searchParams.set("q", `${q.query}${since}`);
      url.searchParams.set("per_page", String(q.maxResults));
      url.searchParams.set("page", String(q.page));
      const headers: Record<string, string> = {
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "user-agent": "plumbline-reference",
      };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      const r = await fetchUpstreamJson("GitHub", url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, headers });
      if (!r.ok) return r;
      const items = ((r.value as { items?: Repo[] })?.items ?? []) as Repo[];
      const hits = items.flatMap((x) => {
        const link = cleanUrl(x.html_url);
        if (!link) return [];
        const title = typeof x.full_name === "string" ? x.full_name : link;
        const stars = countOf(x.stargazers_count);
        const language = typeof x.language === "string" && x.language !== "" ? x.language : undefined;
        return [
          {
            title,
            link,
            snippet: plainText(x.description),
            date: isoOrNull(x.pushed_at ?? x.updated_at),
            fields: {
              kind: "repo" as const,
              ...(stars !== undefined ? { stars } : {}),
              ...(language ? { language } : {}),
            },
          },
        ];
      });
      const images = q.image
        ? [...new Set(items.map((x) => cleanUrl(x.owner?.avatar_url)).filter((u) => u !== null))]
        : [];
      return { ok: true, value: { hits, images } };
    },
  };
}
