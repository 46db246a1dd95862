// `plumbline bench page-index` end to end on a small corpus: the pages it times are really in the index, its
// queries find them, and the figures agree with each other. No speed is judged. PostgreSQL when the test database
// is configured (PLUMBLINE_TEST_DATABASE_URL), as the other PostgreSQL tests.
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../test-support/cli-process.ts";
import type { PageIndexBenchResult, PageIndexStoreResult } from "../page-index-bench.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;

function expectConsistent(s: PageIndexStoreResult, pages: number) {
  expect(s).toMatchObject({ pages, indexed: pages, queries: 200 });
  expect(s.addSeconds).toBeGreaterThan(0);
  expect(s.pagesPerSecond).toBeCloseTo(pages / s.addSeconds, 6);
  // the corpus's common words are in most pages: most two-word queries find something
  expect(s.queriesWithHits).toBeGreaterThan(100);
  expect(s.queriesWithHits).toBeLessThanOrEqual(200);
  expect(s.p50Ms).toBeGreaterThan(0);
  expect(s.p95Ms).toBeGreaterThanOrEqual(s.p50Ms);
  expect(s.maxMs).toBeGreaterThanOrEqual(s.p95Ms);
}

describe("bench page-index", () => {
  it("adds the pages to the SQLite index and searches them, with consistent figures", async () => {
    const run = await runCli(["bench", "page-index", "--pages", "40", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as PageIndexBenchResult;
    expect(r.stores.map((s) => s.store)).toEqual(["sqlite"]);
    expectConsistent(r.stores[0], 40);
  }, 60_000);

  it.skipIf(!PG)(
    "measures PostgreSQL on the same corpus with --database-url",
    async () => {
      const run = await runCli(["bench", "page-index", "--pages", "40", "--database-url", PG as string, "--json"]);
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(run.stdout) as PageIndexBenchResult;
      expect(r.stores.map((s) => s.store)).toEqual(["sqlite", "postgres"]);
      for (const s of r.stores) expectConsistent(s, 40);
      // the same pages and the same queries on both stores
      expect(r.stores[1].queriesWithHits).toBe(r.stores[0].queriesWithHits);
    },
    120_000,
  );

  it("prints one line per store without --json", async () => {
    const run = await runCli(["bench", "page-index", "--pages", "10"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^sqlite: 10 pages added in \d+\.\d s \(\d+ pages\/s\); search \(200 queries\) p50 [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms\n$/,
    );
  }, 60_000);

  it("refuses bad arguments with exit 2", async () => {
    const pages = await runCli(["bench", "page-index", "--pages", "100001"]);
    expect(pages.code).toBe(2);
    expect(pages.stderr).toContain(
      "option '--pages <n>' argument '100001' is invalid. Expected a whole number 1..100000.",
    );
    const url = await runCli(["bench", "page-index", "--database-url", "mysql://localhost/x"]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain(
      "option '--database-url <url>' argument 'mysql://localhost/x' is invalid. Expected a postgres:// or postgresql:// URL.",
    );
  });
});
