// POST /search and POST /news through the reference (issue 14), on SQLite and PostgreSQL: a fresh reference crawls
// a fixture site (/crawl feeds the page index), then finds its pages (the relevance corpus ranks right), news comes
// newest first from dated pages only, image: true returns the pages' images, crawl_results returns content and
// bills N crawls, and in a batch an upstream failure fails that entry alone (502, cost 0).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";
import { CORPUS, corpusHtml, RELEVANCE_QUERIES } from "./relevance-corpus.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const dirs: string[] = [];
let site: FixtureSite;
let failing: Server;
let failingUrl: string;

beforeAll(async () => {
  site = await serveSite({
    ...Object.fromEntries(CORPUS.map((p) => [p.path, { body: corpusHtml(p) }])),
    "/missing.html": { status: 404, body: "<h1>Not found</h1>" },
  });
  // an upstream that always fails: Wikipedia for search, Hacker News for news
  failing = createServer((_req, res) => res.writeHead(503).end("overloaded"));
  await new Promise<void>((r) => failing.listen(0, "127.0.0.1", r));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await site?.close();
  await new Promise((r) => failing?.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`search and news on the reference (${kind})`, () => {
    let ref: RunningReference;

    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${ref.url}${path}`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> & { results: Hit[] } };
    };
    type Hit = {
      title: string;
      link: string;
      snippet: string;
      content?: string;
      date?: string;
      published_date?: string;
    };
    const paths = (hits: Hit[]) => hits.map((h) => new URL(h.link).pathname);
    const usage = async () =>
      (
        (await (await fetch(`${ref.url}/usage`, { headers: { authorization: "Bearer k" } })).json()) as {
          usage: number;
        }
      ).usage;

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-search-"));
      dirs.push(dir);
      ref = await startReference({
        port: 0,
        dataDir: dir,
        databaseUrl:
          kind === "postgres" ? await freshPostgresSchema(PG as string, "plumbline_ref_search_test") : undefined,
        allowPrivateNetwork: true,
        keys: [{ key: "k", credits: 10_000 }],
        rateLimits: { perAccount: 0 },
        searchUpstreams: { wikipediaUrl: failingUrl, hackernewsUrl: failingUrl, timeoutMs: 2000 },
      });
      // a fresh install knows nothing until it has fetched something
      expect((await post("/search", { query: "sourdough" })).body.results).toEqual([]);
      const crawled = await post(
        "/crawl",
        CORPUS.map((p) => ({ url: `${site.url}${p.path}` })),
      );
      expect(crawled.status).toBe(200);
    }, 60_000);

    afterAll(async () => {
      await ref?.close();
    });

    for (const r of RELEVANCE_QUERIES.filter((x) => !x.only || x.only === kind)) {
      it(`finds ${r.first} first for ${r.query} (${r.why})`, async () => {
        const res = await post("/search", { query: r.query, ...(r.language ? { language: r.language } : {}) });
        expect(res.status).toBe(200);
        expect(paths(res.body.results)[0]).toBe(r.first);
      });
    }

    it("answers with a snippet of the page and echoes the request with its defaults (D-echo)", async () => {
      const body = { query: "hermit crabs", max_results: 3, search_service: "" };
      const res = await post("/search", body);
      const defaults = { page: 1, crawl_results: 0, image: false, include_sites: [], exclude_sites: [] };
      expect(res.body.searchParameters).toEqual({ ...defaults, ...body });
      expect(res.body.results[0]).toMatchObject({ title: "Life in tide pools" });
      expect(res.body.results[0].snippet).toContain("hermit crabs");
      expect(res.body.results[0].content).toBeUndefined();
    });

    it("pages with page and max_results (any word matches when no page has them all)", async () => {
      const query = "tide bicycle sourdough fastify";
      const all = paths((await post("/search", { query, max_results: 50 })).body.results);
      expect(all.length).toBeGreaterThan(4);
      const p2 = paths((await post("/search", { query, max_results: 2, page: 2 })).body.results);
      expect(p2).toEqual(all.slice(2, 4));
    });

    it("news: dated pages only, newest first within relevance, time_range honoured", async () => {
      const news = await post("/news", { query: "bicycle lanes", max_results: 10 });
      expect(news.status).toBe(200);
      expect(paths(news.body.results)).toEqual([
        "/news/bicycle-lanes-open.html",
        "/news/council-bicycle-lanes.html",
        "/news/bicycle-lanes-plan.html",
      ]);
      expect(news.body.results[0].date).toBe("2026-11-25T08:00:00.000Z");
      // the live contract's name and format of the same date (D-result-fields), under the seed too
      expect(news.body.results[0].published_date).toBe("2026-11-25T08:00:00Z");
      expect((await post("/news", { query: "sourdough" })).body.results).toEqual([]);
      // the fixture dates lie in 2025-2026; a year before today (the real clock) may hold some or none of them
      const year = await post("/news", { query: "bicycle lanes", time_range: "year" });
      const cutoff = new Date(Date.now() - 366 * 86_400_000).toISOString();
      for (const h of year.body.results) expect(h.date && h.date >= cutoff).toBe(true);
    });

    it("image: true returns the images of the matched pages", async () => {
      const res = await post("/search", { query: "sourdough", image: true });
      expect(res.body.images).toEqual([`${site.url}/images/sourdough.png`]);
      expect((await post("/search", { query: "sourdough" })).body.images).toBeUndefined();
    });

    it("include_sites and exclude_sites", async () => {
      const inc = await post("/search", { query: "tide", include_sites: ["example.com"] });
      expect(inc.body.results).toEqual([]);
      const exc = await post("/search", { query: "tide", exclude_sites: ["127.0.0.1"] });
      expect(exc.body.results).toEqual([]);
      const own = await post("/search", { query: "tide", include_sites: ["127.0.0.1"] });
      expect(own.body.results.length).toBeGreaterThan(0);
    });

    it("crawl_results N gives the first N results their page text and bills N crawls", async () => {
      const before = await usage();
      const res = await post("/search", { query: "bicycle lanes", max_results: 3, crawl_results: 2 });
      expect(res.status).toBe(200);
      expect(res.body.results.map((h) => typeof h.content)).toEqual(["string", "string", "undefined"]);
      expect(res.body.results[0].content).toContain("bicycle lanes");
      expect(before - (await usage())).toBe(3);
    });

    it("a batch: an upstream failure fails its entry alone, 502 and cost 0", async () => {
      const res = await post("/search", [
        { query: "tokio" },
        { query: "tokio", search_service: "wikipedia" },
        { query: "anemone", max_results: 1 },
      ]);
      expect(res.status).toBe(200);
      const entries = res.body.results as unknown as Array<Record<string, unknown>>;
      expect(entries.map((e) => [e.success, e.cost])).toEqual([
        [true, 1],
        [false, 0],
        [true, 1],
      ]);
      expect(entries[1].error).toMatchObject({ statusCode: 502 });
      expect(String((entries[1].error as { message: string }).message)).toContain("Wikipedia");
      expect(res.body.summary).toEqual({ total: 3, successful: 2, failed: 1, totalCost: 2 });
      // a single call: 502 in the error shape, uncharged
      const before = await usage();
      const single = await post("/news", { query: "x", search_service: "hackernews" });
      expect(single.status).toBe(502);
      expect(single.body).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
      expect(await usage()).toBe(before);
    });
  });
}
