// The SQLite page index in its own thread and file (issue 12): pages added through the thread are searchable, the
// reference's database holds no index table (its ledger writes never wait for the index's lock), an index left in
// the old place (plumbline.db) is moved over once and dropped there, and a closed index refuses calls clearly.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../store/open-database.ts";
import { createPageIndex } from "./create-page-index.ts";
import { INDEX_FILE } from "./index-thread.ts";
import { createSqlitePageIndex } from "./sqlite-page-index.ts";

const page = (n: number, words: string) => ({
  url: `https://legacy.test/${n}`,
  title: `Page ${n}`,
  markdown: words,
  fetchedAt: "2026-11-26T06:00:00Z",
  images: [`https://legacy.test/${n}.png`],
});

async function tables(dataDir: string): Promise<string[]> {
  const opened = await openDatabase({ dataDir });
  try {
    const r = await sql<{ name: string }>`select name from sqlite_master where name like 'search%'`.execute(opened.db);
    return r.rows.map((x) => x.name);
  } finally {
    await opened.close();
  }
}

describe("the threaded SQLite page index", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps its pages in a file of its own, apart from the ledger's database", async () => {
    dir = mkdtempSync(join(tmpdir(), "plumbline-index-thread-"));
    const opened = await openDatabase({ dataDir: dir });
    const index = await createPageIndex(opened);
    await index.add(page(1, "tide pools hold anemones"));
    await index.add(page(1, "tide pools hold starfish")); // the same URL again replaces it
    expect(await index.count()).toBe(1);
    expect((await index.search({ query: "starfish", limit: 5, offset: 0 })).map((h) => h.url)).toEqual([
      "https://legacy.test/1",
    ]);
    expect(await index.search({ query: "anemones", limit: 5, offset: 0 })).toEqual([]);
    // crawled again unchanged: still found once, dated by the new fetch, its new metadata kept
    await index.add({ ...page(1, "tide pools hold starfish"), fetchedAt: "2026-11-27T06:00:00Z", images: [] });
    const again = await index.search({ query: "starfish", limit: 5, offset: 0, since: "2026-11-27T00:00:00Z" });
    expect(again.map((h) => [h.url, h.fetchedAt, h.images])).toEqual([
      ["https://legacy.test/1", "2026-11-27T06:00:00.000Z", []],
    ]);
    expect(await index.count()).toBe(1);
    await index.close?.();
    await expect(index.count()).rejects.toThrow(/page index thread/);
    await opened.close();
    expect(existsSync(join(dir, INDEX_FILE))).toBe(true);
    expect(await tables(dir)).toEqual([]);
  });

  it("starts its thread at the first call: an index never used opens no file, and refuses calls once closed", async () => {
    dir = mkdtempSync(join(tmpdir(), "plumbline-index-thread-"));
    const opened = await openDatabase({ dataDir: dir });
    const index = await createPageIndex(opened);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(join(dir, INDEX_FILE))).toBe(false);
    await index.close?.();
    await expect(index.search({ query: "x", limit: 1, offset: 0 })).rejects.toThrow(/page index thread closed/);
    expect(existsSync(join(dir, INDEX_FILE))).toBe(false);
    await opened.close();
  });

  it("moves an index found in plumbline.db over once, and drops it there", async () => {
    dir = mkdtempSync(join(tmpdir(), "plumbline-index-thread-"));
    const before = await openDatabase({ dataDir: dir });
    const legacy = createSqlitePageIndex(before.db);
    await legacy.add(page(1, "sourdough loaves rise overnight"));
    await legacy.add(page(2, "bicycle chains need oil"));
    await before.close();
    expect(await tables(dir)).toContain("search_pages");

    const opened = await openDatabase({ dataDir: dir });
    const index = await createPageIndex(opened);
    expect(await index.count()).toBe(2);
    const hits = await index.search({ query: "sourdough", limit: 5, offset: 0 });
    expect(hits.map((h) => [h.url, h.images])).toEqual([["https://legacy.test/1", ["https://legacy.test/1.png"]]]);
    expect((await index.search({ query: "chain*", limit: 5, offset: 0 })).map((h) => h.url)).toEqual([
      "https://legacy.test/2",
    ]);
    await index.close?.();
    await opened.close();
    expect(await tables(dir)).toEqual([]);

    // the next start finds nothing left to move and keeps what it has
    const again = await openDatabase({ dataDir: dir });
    const reopened = await createPageIndex(again);
    expect(await reopened.count()).toBe(2);
    await reopened.close?.();
    await again.close();
  });
});
