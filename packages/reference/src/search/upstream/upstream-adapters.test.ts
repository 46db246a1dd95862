// Each search upstream against its recorded answers (issue 14: "each adapter is tested against recorded upstream
// responses served from a local server"): what the adapter asks for (path and query parameters), how it reads the
// answer into results, and the rules the search engine applies on top (sites and time range filtered locally,
// max_results, images). An upstream that fails, times out or answers garbage is a 502 value.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Contract, loadContract, type Schemas } from "@plumbline-kit/contract";
import type { EngineContext } from "@plumbline-kit/platform/engines";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PageIndex } from "../page-index.ts";
import { createBackendRouter, type SearchUpstreams } from "../search-backends.ts";
import { createSearchEngines } from "../search-engine.ts";

const recorded = (name: string) =>
  readFileSync(join(import.meta.dirname, "../../test/fixtures/upstream", name), "utf8");
const NOW = Date.parse("2026-11-26T06:00:00Z");
const ctx: EngineContext = { requestId: "t", variability: "normal", seed: 0 };

interface Seen {
  path: string;
  query: URLSearchParams;
  headers: Record<string, unknown>;
}
let server: Server;
let base: string;
const seen: Seen[] = [];
/** path → [status, content type, body] */
let answers: Record<string, [number, string, string] | "hang"> = {};
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const key =
      url.pathname === "/searx/search" ? `${url.pathname}?${url.searchParams.get("categories")}` : url.pathname;
    const a = answers[key];
    if (a === "hang") return;
    if (!a) return res.writeHead(404).end("no such recording");
    res.writeHead(a[0], { "content-type": a[1] }).end(a[2]);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen.length = 0;
  answers = {
    "/searx/search?general": [200, "application/json", recorded("searxng-general.json")],
    "/searx/search?news": [200, "application/json", recorded("searxng-general.json")],
    "/searx/search?images": [200, "application/json", recorded("searxng-images.json")],
    "/w/api.php": [200, "application/json; charset=utf-8", recorded("wikipedia-search.json")],
    "/api/query": [200, "application/atom+xml; charset=utf-8", recorded("arxiv-query.xml")],
    "/search/repositories": [200, "application/json; charset=utf-8", recorded("github-repositories.json")],
    "/api/v1/search": [200, "application/json; charset=utf-8", recorded("hackernews-search.json")],
  };
});

const emptyIndex: PageIndex = { add: async () => {}, search: async () => [], count: async () => 0 };

function engines(u: (base: string) => SearchUpstreams) {
  return createSearchEngines({
    contract,
    index: emptyIndex,
    backendFor: createBackendRouter({ timeoutMs: 5000, ...u(base) }, () => NOW), // a hang detector: loopback answers come far sooner
    crawl: async (r) => ({
      ok: true,
      value: { crawlParameters: r, results: { title: "t", link: r.url, content: `crawled ${r.url}` } },
    }),
    clock: { now: () => NOW },
    defaultService: { search: "google", news: "google" },
  });
}

const search = async (u: (b: string) => SearchUpstreams, p: Schemas["SearchParameters"]) => {
  const r = await engines(u).search(p, ctx);
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.value;
};

describe("SearXNG", () => {
  const u = (b: string) => ({ searxngUrl: `${b}/searx` });

  it("asks the engine of the search_service value, reads results, drops unusable links", async () => {
    const v = await search(u, { query: "rust async runtime", search_service: "bing", language: "en", time_range: "" });
    expect(seen[0].path).toBe("/searx/search");
    expect(Object.fromEntries(seen[0].query)).toMatchObject({
      q: "rust async runtime",
      format: "json",
      pageno: "1",
      categories: "general",
      engines: "bing",
      language: "en",
    });
    expect(v.results).toEqual([
      {
        title: "Tokio - An asynchronous Rust runtime",
        link: "https://tokio.rs/",
        snippet: expect.stringContaining("asynchronous runtime"),
      },
      {
        title: "async-std",
        link: "https://async.rs/",
        snippet: "Async version of the Rust standard library & more.",
        date: "2025-06-02T00:00:00.000Z",
        published_date: "2025-06-02T00:00:00Z",
      },
      expect.objectContaining({ link: "https://en.wikipedia.org/wiki/Async/await" }),
    ]);
    expect(v.images).toBeUndefined();
  });

  it("the default service is google; news uses the news engines and category", async () => {
    await search(u, { query: "q" });
    expect(seen[0].query.get("engines")).toBe("google");
    const r = await engines(u).news({ query: "q", search_service: "reuters", time_range: "week" }, ctx);
    expect(r.ok).toBe(true);
    expect(seen[1].query.get("engines")).toBe("reuters");
    expect(seen[1].query.get("categories")).toBe("news");
    expect(seen[1].query.get("time_range")).toBe("week");
  });

  it("sends site operators and filters the sites again locally", async () => {
    const v = await search(u, {
      query: "rust",
      include_sites: ["tokio.rs", "async.rs"],
      exclude_sites: ["wikipedia.org"],
    });
    expect(seen[0].query.get("q")).toBe("rust site:tokio.rs OR site:async.rs -site:wikipedia.org");
    expect(v.results.map((r) => r.link)).toEqual(["https://tokio.rs/", "https://async.rs/"]);
    const x = await search(u, { query: "rust", search_service: "x" });
    expect(seen.at(-1)?.query.get("q")).toBe("rust site:x.com");
    expect(seen.at(-1)?.query.has("engines")).toBe(false);
    expect(x.results).toEqual([]);
  });

  it("time_range drops results dated before it; max_results and page pick the slice", async () => {
    const v = await search(u, { query: "rust", time_range: "month" });
    expect(v.results.map((r) => r.link)).not.toContain("https://async.rs/");
    expect(v.results).toHaveLength(2);
    const p = await search(u, { query: "rust", max_results: 1, page: 2 });
    expect(seen.at(-1)?.query.get("pageno")).toBe("1");
    expect(p.results.map((r) => r.link)).toEqual(["https://async.rs/"]);
    await search(u, { query: "rust", max_results: 10, page: 3 });
    expect(seen.at(-1)?.query.get("pageno")).toBe("3");
  });

  it("image: true adds the image results' URLs", async () => {
    const v = await search(u, { query: "rust", image: true });
    expect(v.images).toEqual(["https://tokio.rs/img/tokio-horizontal.svg", "https://tse2.mm.bing.net/th?id=OIP.rust"]);
  });

  it("crawl_results crawls the first results", async () => {
    const v = await search(u, { query: "rust", crawl_results: 1 });
    expect(v.results[0].content).toBe("crawled https://tokio.rs/");
    expect(v.results[1].content).toBeUndefined();
  });
});

describe("Wikipedia", () => {
  const u = (b: string) => ({ wikipediaUrl: b });

  it("asks the Action API and links each title to its article", async () => {
    const v = await search(u, { query: "tide pool", search_service: "wikipedia", max_results: 2, page: 3 });
    expect(seen[0].path).toBe("/w/api.php");
    expect(Object.fromEntries(seen[0].query)).toMatchObject({
      action: "query",
      list: "search",
      srsearch: "tide pool",
      srlimit: "2",
      sroffset: "4",
    });
    expect(v.results[0]).toEqual({
      title: "Tide pool",
      link: `${base}/wiki/Tide_pool`,
      snippet: "A tide pool or rock pool is a shallow pool of seawater that forms on the rocky intertidal shore.",
      date: "2026-10-30T14:02:11.000Z",
      published_date: "2026-10-30T14:02:11Z",
    });
    expect(v.results[1].snippet).toBe(
      "Sea anemones are a group of predatory marine invertebrates & relatives of corals.",
    );
  });

  it("fills {lang} with the request's language, and filters time_range on the last edit", async () => {
    const r = await createBackendRouter({ wikipediaUrl: "http://{lang}.invalid" })("search", "wikipedia");
    expect(r?.name).toBe("Wikipedia");
    const v = await search(u, { query: "tide", search_service: "wikipedia", time_range: "year" });
    expect(v.results.map((x) => x.title)).toEqual(["Tide pool"]);
  });
});

describe("arXiv", () => {
  const u = (b: string) => ({ arxivUrl: b });

  it("turns the query into all: terms, the time range into submittedDate, and reads the Atom feed", async () => {
    const v = await search(u, { query: 'sparse "attention is"', search_service: "arxiv", max_results: 2 });
    expect(seen[0].path).toBe("/api/query");
    expect(seen[0].query.get("search_query")).toBe('all:sparse AND all:"attention is"');
    expect(seen[0].query.get("max_results")).toBe("2");
    expect(v.results[0]).toEqual({
      title: "Attention Is All You Need",
      link: "http://arxiv.org/abs/1706.03762v7",
      snippet: expect.stringMatching(/^The dominant sequence transduction models .* configuration\.$/),
      date: "2017-06-12T17:57:34.000Z",
      published_date: "2017-06-12T17:57:34Z",
    });
    expect(v.results[1].title).toBe("Sparse Attention at Scale");
    const w = await search(u, { query: "attention", search_service: "arxiv", time_range: "week" });
    expect(seen[1].query.get("search_query")).toBe("all:attention AND submittedDate:[202611190600 TO 202611260600]");
    expect(w.results.map((x) => x.title)).toEqual(["Sparse Attention at Scale"]);
  });

  it("answers 502 for a feed it cannot read", async () => {
    for (const body of ["<html><body>maintenance", "<feed><entry><title>", "{}"]) {
      answers["/api/query"] = [200, "application/atom+xml", body];
      const r = await engines(u).search({ query: "x", search_service: "arxiv" }, ctx);
      expect(r, body).toEqual({
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
        message: "The arXiv upstream answered something that is not an Atom feed",
      });
    }
  });
});

describe("GitHub", () => {
  const u = (b: string) => ({ githubApiUrl: b, githubToken: "ghp_secret" });

  it("searches repositories with page and per_page, pushed:>= for the time range, avatars as images", async () => {
    const v = await search(u, {
      query: "fastify",
      search_service: "github",
      max_results: 2,
      page: 2,
      image: true,
      time_range: "day",
    });
    expect(seen[0].path).toBe("/search/repositories");
    expect(Object.fromEntries(seen[0].query)).toMatchObject({
      q: "fastify pushed:>=2026-11-25",
      per_page: "2",
      page: "2",
    });
    expect(seen[0].headers.authorization).toBe("Bearer ghp_secret");
    expect(v.results).toEqual([
      {
        title: "fastify/fastify",
        link: "https://github.com/fastify/fastify",
        snippet: "Fast and low overhead web framework, for Node.js",
        date: "2026-11-25T18:00:00.000Z",
        published_date: "2026-11-25T18:00:00Z",
        // what GitHub gives of D-result-fields for a repository
        kind: "repo",
        stars: 33000,
        language: "JavaScript",
      },
    ]);
    expect(v.images).toEqual(["https://avatars.githubusercontent.com/u/24939410?v=4"]);
  });

  it("never shows its token in a failure", async () => {
    answers["/search/repositories"] = [403, "application/json", '{"message":"API rate limit exceeded"}'];
    const r = await engines(u).search({ query: "fastify", search_service: "github" }, ctx);
    expect(r).toEqual({ ok: false, code: "PLB_UPSTREAM_FAILED", message: "The GitHub upstream answered 403" });
  });
});

describe("Hacker News (Algolia) for news", () => {
  const u = (b: string) => ({ hackernewsUrl: b });

  it("asks for stories with hitsPerPage and created_at_i; links the discussion, the article in story_url", async () => {
    const r = await engines(u).news(
      { query: "search", search_service: "hackernews", max_results: 2, time_range: "day" },
      ctx,
    );
    expect(seen[0].path).toBe("/api/v1/search");
    expect(Object.fromEntries(seen[0].query)).toMatchObject({
      query: "search",
      tags: "story",
      hitsPerPage: "2",
      page: "0",
      numericFilters: `created_at_i>=${(NOW - 86_400_000) / 1000}`,
    });
    if (!r.ok) throw new Error(r.code);
    expect(r.value.results).toEqual([
      {
        title: "Show HN: A search engine in one SQLite file",
        link: "https://news.ycombinator.com/item?id=41000001",
        snippet: "512 points and 120 comments on Hacker News",
        date: "2026-11-25T16:20:00.000Z",
        published_date: "2026-11-25T16:20:00Z",
        // D-result-fields: the thread's points and comments, the article submitted
        points: 512,
        num_comments: 120,
        story_url: "https://example.com/sqlite-search",
      },
    ]);
    const all = await engines(u).news({ query: "search", search_service: "hackernews" }, ctx);
    // a text post (Ask HN): its story_url is empty
    expect(all.ok && all.value.results[1]).toEqual({
      title: "Ask HN: Full-text search in 2026?",
      link: "https://news.ycombinator.com/item?id=41000002",
      snippet: "What do you use for full-text search?",
      date: "2026-11-23T09:00:00.000Z",
      published_date: "2026-11-23T09:00:00Z",
      points: 12,
      num_comments: 3,
      story_url: "",
    });
  });
});

describe("upstream failures are 502 values", () => {
  it("an error status, a non-JSON body, a timeout and an unreachable host", async () => {
    const u = (b: string) => ({ searxngUrl: `${b}/searx` });
    answers["/searx/search?general"] = [500, "text/plain", "boom"];
    const r1 = await engines(u).search({ query: "x" }, ctx);
    expect(r1).toEqual({ ok: false, code: "PLB_UPSTREAM_FAILED", message: "The SearXNG upstream answered 500" });
    answers["/searx/search?general"] = [200, "text/html", "<html>"];
    expect(await engines(u).search({ query: "x" }, ctx)).toMatchObject({
      message: expect.stringContaining("not JSON"),
    });
    answers["/searx/search?general"] = "hang";
    expect(await engines(u).search({ query: "x" }, ctx)).toMatchObject({
      ok: false,
      message: "The SearXNG upstream did not answer within 5000 ms",
    });
    const gone = await engines(() => ({ searxngUrl: "http://127.0.0.1:1" })).search({ query: "x" }, ctx);
    expect(gone).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });

  it("a value no upstream serves is answered by the local index", async () => {
    const local = await search(() => ({ wikipediaUrl: `${base}` }), { query: "x", search_service: "google" });
    expect(seen).toEqual([]);
    expect(local.results).toEqual([]);
  });
});
