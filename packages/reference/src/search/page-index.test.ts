// The page index on both stores (issue 14 "Relevance"): the relevance corpus ranks its right page first for every
// query (phrase, prefix, stemming, non-English), news filters and orders by date, sites/time/language/paging
// filters hold, re-adding a URL replaces it, and hostile query text is never syntax. PostgreSQL runs when
// PLUMBLINE_TEST_DATABASE_URL is set, and PLUMBLINE_REQUIRE_POSTGRES=1 (CI) refuses to skip it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { type OpenedDatabase, openDatabase } from "../store/open-database.ts";
import { CORPUS, corpusMarkdown, RELEVANCE_QUERIES } from "../test/relevance-corpus.ts";
import { createPageIndex } from "./create-page-index.ts";
import type { IndexQuery, PageIndex } from "./page-index.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const BASE = "https://corpus.test";

describe("PostgreSQL for the page index tests", () => {
  it("is configured wherever it is required", () => {
    if (process.env.PLUMBLINE_REQUIRE_POSTGRES === "1") expect(PG, "PLUMBLINE_TEST_DATABASE_URL").toMatch(/^postgres/);
  });
});

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`the page index on ${kind}`, () => {
    let opened: OpenedDatabase;
    let index: PageIndex;
    let dir = "";
    const q = (query: string, more: Partial<IndexQuery> = {}) => index.search({ query, limit: 10, offset: 0, ...more });
    const paths = async (query: string, more: Partial<IndexQuery> = {}) =>
      (await q(query, more)).map((h) => new URL(h.url).pathname);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "plumbline-index-"));
      opened = await openDatabase(
        kind === "postgres"
          ? { databaseUrl: await freshPostgresSchema(PG as string, "plumbline_page_index_test") }
          : { dataDir: dir },
      );
      index = await createPageIndex(opened);
      for (const p of CORPUS)
        await index.add({
          url: `${BASE}${p.path}`,
          title: p.title,
          markdown: corpusMarkdown(p),
          fetchedAt: "2026-11-26T06:00:00Z",
          publishedAt: p.published ?? null,
          language: p.language,
        });
      // another site, for the sites filters
      await index.add({
        url: "https://blog.other.test/tide.html",
        title: "Holiday photos",
        markdown: "Sand, sun and one anemone in a rock pool.",
        fetchedAt: "2020-01-01T00:00:00Z",
        language: null,
      });
    });
    afterAll(async () => {
      await index?.close?.();
      await opened?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const r of RELEVANCE_QUERIES.filter((x) => !x.only || x.only === kind)) {
      it(`ranks ${r.first} first for ${r.query} (${r.why})`, async () => {
        expect((await paths(r.query, { language: r.language }))[0]).toBe(r.first);
      });
    }

    it("requires every word, falling back to any word when no page has them all", async () => {
      expect(await paths("tokio sourdough")).toEqual(expect.arrayContaining(["/rust-async.html", "/sourdough.html"]));
      expect(await paths("tokio executor")).toEqual(["/rust-async.html"]);
      expect(await paths("zyxxyz")).toEqual([]);
    });

    it("never reads query text as syntax", async () => {
      for (const hostile of ['"', "*", "AND OR NOT", "a:b", "(x", "' or 1=1 --", "NEAR(a b)", "-", "::", "\\"])
        await expect(q(hostile)).resolves.toBeInstanceOf(Array);
      expect(await paths('"plugin"')).toContain("/fastify-plugins.html");
    });

    it("news: pages with a publication date only; time and site filters", async () => {
      const news = await q("bicycle lanes", { publishedOnly: true });
      expect(news.map((h) => h.publishedAt)).not.toContain(null);
      expect(news).toHaveLength(3);
      const recent = await paths("bicycle lanes", { publishedOnly: true, since: "2026-11-01T00:00:00Z" });
      expect(recent.sort()).toEqual(["/news/bicycle-lanes-open.html", "/news/council-bicycle-lanes.html"]);
      expect((await paths("anemone")).sort()).toEqual(["/tide-pools.html", "/tide.html"]);
      expect(await paths("anemone", { includeSites: ["other.test"] })).toEqual(["/tide.html"]);
      expect(await paths("anemone", { excludeSites: ["https://www.other.test/"] })).toEqual(["/tide-pools.html"]);
      expect(await paths("anemone", { since: "2026-01-01T00:00:00Z" })).toEqual(["/tide-pools.html"]);
    });

    it("language keeps pages in that language and those that declare none", async () => {
      expect(await paths("anemone", { language: "de" })).toEqual(["/tide.html"]);
      expect(await paths("Fahrrad", { language: "de-CH" })).toEqual(["/fahrrad.html"]);
    });

    it("pages through the answer", async () => {
      const all = await paths("the", { limit: 50 });
      const [p1, p2] = [await paths("the", { limit: 2 }), await paths("the", { limit: 2, offset: 2 })];
      expect([...p1, ...p2]).toEqual(all.slice(0, 4));
    });

    it("replaces a page added again under the same URL (the fragment aside)", async () => {
      const before = await index.count();
      await index.add({
        url: "https://blog.other.test/tide.html#top",
        title: "Holiday photos",
        markdown: "Now about barnacles.",
        fetchedAt: "2026-11-26T00:00:00Z",
        publishedAt: "not a date",
      });
      expect(await index.count()).toBe(before);
      expect(await paths("barnacles")).toEqual(["/tide.html"]);
      expect(await paths("anemone")).toEqual(["/tide-pools.html"]);
    });

    it("keeps a publication day given alone as a day, a time as its UTC date-time (D-result-fields)", async () => {
      await index.add({
        url: "https://dates.test/day.html",
        title: "Quokka census day",
        markdown: "The quokka census counted a day.",
        fetchedAt: "2026-11-26T00:00:00Z",
        publishedAt: "2026-11-20",
      });
      await index.add({
        url: "https://dates.test/time.html",
        title: "Quokka census time",
        markdown: "The quokka census counted a time.",
        fetchedAt: "2026-11-26T00:00:00Z",
        publishedAt: "2026-11-21T08:30:00+02:00",
      });
      const dates = Object.fromEntries((await q("quokka census")).map((h) => [new URL(h.url).pathname, h.publishedAt]));
      expect(dates).toEqual({ "/day.html": "2026-11-20", "/time.html": "2026-11-21T06:30:00.000Z" });
      // filtered by the day's start: a window from the 20th keeps it, one from the 21st does not
      const since = async (iso: string) =>
        (await q("quokka census", { since: iso })).map((h) => new URL(h.url).pathname);
      expect(await since("2026-11-20T00:00:00.000Z")).toEqual(expect.arrayContaining(["/day.html", "/time.html"]));
      expect(await since("2026-11-21T00:00:00.000Z")).toEqual(["/time.html"]);
    });
  });
}
