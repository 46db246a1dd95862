// Search and news semantics an outside client can observe without fetching pages (interface-spec "Search
// parameters", "Search response"; D-echo). Judged over every search/news answer of the run, batch entries included.
import { answerFailures } from "../answer-judge.ts";
import { describe, failure, json, status } from "../check-helpers.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

type Params = Record<string, unknown>;
type SearchAnswer = {
  searchParameters?: Params;
  results?: Array<{ link?: unknown; content?: unknown }>;
  images?: unknown;
};

/** Every (request item, answer) pair of successful search and news calls, batch entries unrolled. */
function answers(ctx: RunContext): Array<{ sent: Params; answer: SearchAnswer; ex: Exchange }> {
  const out = [];
  for (const ex of ctx.http.exchanges) {
    if ((ex.operationId !== "search" && ex.operationId !== "news") || status(ex) !== 200 || !ex.sent) continue;
    if (Array.isArray(ex.sent)) {
      const entries = json<{ results?: Array<{ success?: unknown; data?: SearchAnswer }> }>(ex)?.results ?? [];
      entries.forEach((e, i) => {
        if (e.success === true && e.data) out.push({ sent: (ex.sent as Params[])[i], answer: e.data, ex });
      });
    } else out.push({ sent: ex.sent as Params, answer: json<SearchAnswer>(ex) ?? {}, ex });
  }
  return out;
}

const searchOrNews = (ex: Exchange) => ex.operationId === "search" || ex.operationId === "news";

const maxResults: CheckDefinition = {
  id: "search-max-results",
  title: "A search or news answer never holds more than max_results results (default 5)",
  severity: "major",
  section: "Search parameters",
  basis: { kind: "contract" },
  operations: ["search", "news"],
  phase: "traffic",
  run: async (ctx) => ({ failures: answerFailures(ctx, ["max-results"], searchOrNews, () => "") }),
};

const echo: CheckDefinition = {
  id: "search-echo",
  title: "searchParameters echoes every field of the request with its value",
  severity: "minor",
  section: "Search response",
  basis: { kind: "decision", decision: "D-echo" },
  operations: ["search", "news"],
  phase: "traffic",
  run: async (ctx) => ({ failures: answerFailures(ctx, ["parameters-echo"], searchOrNews, () => "") }),
};

const crawledContent: CheckDefinition = {
  id: "search-crawl-results-content",
  title: "crawl_results N gives (up to) N results carrying their page content",
  severity: "minor",
  section: "Search result; Search parameters",
  basis: { kind: "contract" },
  operations: ["search", "news"],
  phase: "traffic",
  async run(ctx) {
    const failures: Failure[] = [];
    for (const a of answers(ctx)) {
      const n = typeof a.sent.crawl_results === "number" ? a.sent.crawl_results : 0;
      const results = a.answer.results ?? [];
      const want = Math.min(n, results.length);
      const got = results.filter((r) => typeof r.content === "string" && r.content.length > 0).length;
      if (got < want)
        failures.push(failure(`crawl_results ${n}: ${got} results with content`, [a.ex], `≥ ${want}`, `${got}`));
    }
    return { failures };
  },
};

const hostOf = (link: unknown) => {
  try {
    return new URL(String(link)).hostname;
  } catch {
    return "";
  }
};
const within = (host: string, site: string) => host === site || host.endsWith(`.${site}`);

const imagesAndSites: CheckDefinition = {
  id: "search-images-and-sites",
  title: "image: true returns images; include_sites and exclude_sites are respected",
  severity: "minor",
  section: "Search parameters; Search response",
  basis: { kind: "contract" },
  operations: ["search"],
  cost: () => 3,
  async run(ctx) {
    const failures: Failure[] = [];
    const call = (body: Params) => ctx.http.call(this.id, "POST", "/search", { body });
    const img = await call({ query: "plumbline images", image: true, max_results: 3 });
    if (status(img) !== 200 || !Array.isArray(json<SearchAnswer>(img)?.images))
      failures.push(failure("image: true gave no images array", [img], "200 with images[]", describe(img)));
    const inc = await call({ query: "plumbline include", include_sites: ["example.com"], max_results: 5 });
    for (const r of json<SearchAnswer>(inc)?.results ?? [])
      if (!within(hostOf(r.link), "example.com"))
        failures.push(failure("include_sites: a result from another site", [inc], "example.com", String(r.link)));
    const exc = await call({ query: "plumbline exclude", exclude_sites: ["wikipedia.org"], max_results: 5 });
    for (const r of json<SearchAnswer>(exc)?.results ?? [])
      if (within(hostOf(r.link), "wikipedia.org"))
        failures.push(
          failure("exclude_sites: a result from the excluded site", [exc], "not wikipedia.org", String(r.link)),
        );
    for (const ex of [inc, exc])
      if (status(ex) !== 200) failures.push(failure("site-filtered search failed", [ex], "200", describe(ex)));
    return { failures };
  },
};

export const SEARCH_CHECKS = [maxResults, echo, crawledContent, imagesAndSites];
