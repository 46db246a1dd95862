// Wikipedia's search through the MediaWiki Action API (`/w/api.php?action=query&list=search`). The base URL may
// hold `{lang}`, filled with the request's language (default en): `https://{lang}.wikipedia.org` asks the edition
// of that language. Results are dated by their last edit, so time_range is applied to that date locally.
import type { EngineResult } from "@plumbline-kit/platform/engines";
import {
  cleanUrl,
  fetchUpstreamJson,
  isoOrNull,
  plainText,
  type SearchBackend,
  type UpstreamAnswer,
  under,
} from "./upstream.ts";

interface WikiHit {
  title?: unknown;
  snippet?: unknown;
  timestamp?: unknown;
}

export function createWikipediaBackend(o: { baseUrl: string; timeoutMs: number; maxBytes?: number }): SearchBackend {
  return {
    name: "Wikipedia",
    async search(q): Promise<EngineResult<UpstreamAnswer>> {
      const lang =
        (q.language ?? "en")
          .toLowerCase()
          .split(/[-_]/)[0]
          .replace(/[^a-z]/g, "") || "en";
      const base = o.baseUrl.replaceAll("{lang}", lang);
      const url = under(base, "/w/api.php");
      const p = url.searchParams;
      p.set("action", "query");
      p.set("list", "search");
      p.set("format", "json");
      p.set("formatversion", "2");
      p.set("srsearch", q.query);
      p.set("srlimit", String(q.maxResults));
      p.set("sroffset", String((q.page - 1) * q.maxResults));
      p.set("srprop", "snippet|timestamp");
      const r = await fetchUpstreamJson("Wikipedia", url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
      if (!r.ok) return r;
      const found = ((r.value as { query?: { search?: WikiHit[] } })?.query?.search ?? []) as WikiHit[];
      const hits = found.flatMap((h) => {
        if (typeof h.title !== "string") return [];
        const link = cleanUrl(`/wiki/${encodeURIComponent(h.title.replaceAll(" ", "_"))}`, base);
        return link ? [{ title: h.title, link, snippet: plainText(h.snippet), date: isoOrNull(h.timestamp) }] : [];
      });
      return { ok: true, value: { hits, images: [] } };
    },
  };
}
