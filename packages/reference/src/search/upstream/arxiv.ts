// arXiv's API (`/api/query`, an Atom feed). The query's words and phrases become `all:` terms joined with AND, the
// time range a `submittedDate:[… TO …]` term; papers are dated by their first submission.

import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { PageParser } from "../../engines/parse/parse-pool.ts";
import { parseQuery } from "../query-terms.ts";
import {
  cleanUrl,
  fetchUpstream,
  isoOrNull,
  plainText,
  type SearchBackend,
  type UpstreamAnswer,
  type UpstreamQuery,
  under,
  upstreamFailure,
} from "./upstream.ts";

/** 2026-11-26T05:00:00Z → 202611260500 (arXiv's submittedDate form) */
const stamp = (d: Date) => d.toISOString().replace(/[-:T]/g, "").slice(0, 12);

export function arxivSearchQuery(q: Pick<UpstreamQuery, "query" | "since">, now: Date): string {
  const terms = parseQuery(q.query).map((t) => (t.kind === "phrase" ? `all:"${t.words.join(" ")}"` : `all:${t.text}`));
  if (q.since) terms.push(`submittedDate:[${stamp(new Date(q.since))} TO ${stamp(now)}]`);
  return terms.join(" AND ") || "all:*";
}

export function createArxivBackend(o: {
  baseUrl: string;
  timeoutMs: number;
  maxBytes?: number;
  now?: () => number;
  parser?: Pick<PageParser, "arxivFeed">;
}): SearchBackend {
  return {
    name: "arXiv",
    async search(q): Promise<EngineResult<UpstreamAnswer>> {
      const url = under(o.baseUrl, "/api/query");
      url.searchParams.set("search_query", arxivSearchQuery(q, new Date(o.now?.() ?? Date.now())));
      url.searchParams.set("start", String((q.page - 1) * q.maxResults));
      url.searchParams.set("max_results", String(q.maxResults));
      url.searchParams.set("sortBy", "relevance");
      const r = await fetchUpstream("arXiv", url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
      if (!r.ok) return r;
      // an upstream's XML is parsed in the reference's worker pool when one is given (issue 38)
      const parsed = o.parser
        ? await o.parser.arxivFeed(r.value.text, q.maxResults)
        : { ok: true as const, value: (await import("./arxiv-feed.ts")).readArxivFeed(r.value.text, q.maxResults) };
      if (!parsed.ok) return parsed;
      const feed = parsed.value;
      if (!feed) return upstreamFailure("The arXiv upstream answered something that is not an Atom feed");
      const entries = feed.entry ?? [];
      const hits = entries.flatMap((e) => {
        const alternate = e.link?.find((l) => l["@rel"] === "alternate")?.["@href"];
        const link = cleanUrl(alternate ?? e.id);
        if (!link) return [];
        const title = plainText(String(e.title ?? ""));
        return [
          { title: title || link, link, snippet: plainText(String(e.summary ?? "")), date: isoOrNull(e.published) },
        ];
      });
      return { ok: true, value: { hits, images: [] } };
    },
  };
}
