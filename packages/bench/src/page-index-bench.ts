// `plumbline bench page-index` (issue 14): how fast the page index adds and searches on SQLite and PostgreSQL,
// over a synthetic corpus of N pages of about 400 words drawn from a fixed vocabulary (deterministic: every store
// indexes the same pages and answers the same queries). PostgreSQL runs in a schema of its own, made afresh
// (test-support/postgres-schema.ts, which is why this lives in bench/, outside the product folders).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPageIndex } from "@plumbline-kit/reference/search/create-page-index";
import { type OpenedDatabase, openDatabase } from "@plumbline-kit/reference/store/open-database";

export interface PageIndexBenchOptions {
  /** synthetic pages to add (default 5000) */
  pages?: number;
  /** also measure PostgreSQL at this URL (a schema `plumbline_index_bench` is dropped and made again there) */
  databaseUrl?: string;
}

export interface PageIndexStoreResult {
  store: "sqlite" | "postgres";
  pages: number;
  /** pages the index counts once every add returned */
  indexed: number;
  addSeconds: number;
  pagesPerSecond: number;
  queries: number;
  /** queries that found at least one page */
  queriesWithHits: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface PageIndexBenchResult {
  stores: PageIndexStoreResult[];
}

const QUERIES = 200;
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100_000}x${i % 13}`);

/** The corpus's words: a seeded generator, Zipf-like (common words often, rare words seldom). */
function words(seed = 42) {
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)];
  return { word, text: (n: number) => Array.from({ length: n }, word).join(" ") };
}

async function run(
  store: PageIndexStoreResult["store"],
  opened: OpenedDatabase,
  pages: number,
): Promise<PageIndexStoreResult> {
  const { word, text } = words();
  const index = await createPageIndex(opened);
  try {
    let t = performance.now();
    for (let i = 0; i < pages; i++)
      await index.add({
        url: `https://bench.test/p/${i}`,
        title: text(6),
        markdown: text(400),
        fetchedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        publishedAt: i % 3 === 0 ? new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() : null,
        language: "en",
      });
    const addMs = performance.now() - t;
    const indexed = await index.count();
    const queries = Array.from({ length: QUERIES }, (_, i) =>
      i % 4 === 3 ? `"${word()} ${word()}"` : `${word()} ${word()}`,
    );
    const times: number[] = [];
    let queriesWithHits = 0;
    for (const q of queries) {
      t = performance.now();
      const hits = await index.search({ query: q, limit: 10, offset: 0 });
      times.push(performance.now() - t);
      if (hits.length > 0) queriesWithHits++;
    }
    times.sort((a, b) => a - b);
    const p = (x: number) => times[Math.min(times.length - 1, Math.floor(x * times.length))];
    return {
      store,
      pages,
      indexed,
      addSeconds: addMs / 1000,
      pagesPerSecond: (pages * 1000) / addMs,
      queries: QUERIES,
      queriesWithHits,
      p50Ms: p(0.5),
      p95Ms: p(0.95),
      maxMs: p(1),
    };
  } finally {
    await index.close?.();
  }
}

export async function benchPageIndex(o: PageIndexBenchOptions = {}): Promise<PageIndexBenchResult> {
  const pages = o.pages ?? 5000;
  const stores: PageIndexStoreResult[] = [];
  const dir = mkdtempSync(join(tmpdir(), "plumbline-index-bench-"));
  try {
    const sqlite = await openDatabase({ dataDir: dir });
    try {
      stores.push(await run("sqlite", sqlite, pages));
    } finally {
      await sqlite.close();
    }
    if (o.databaseUrl) {
      // the test glue is loaded when the benchmark runs, not when the package's entry (index.ts) is
      const { freshPostgresSchema } = await import("../../../test-support/postgres-schema.ts");
      const pg = await openDatabase({ databaseUrl: await freshPostgresSchema(o.databaseUrl, "plumbline_index_bench") });
      try {
        stores.push(await run("postgres", pg, pages));
      } finally {
        await pg.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { stores };
}

/** One line per store: pages/s added, and the search latencies. */
export function renderPageIndexBench(r: PageIndexBenchResult): string {
  return r.stores
    .map(
      (s) =>
        `${s.store}: ${s.pages} pages added in ${s.addSeconds.toFixed(1)} s (${s.pagesPerSecond.toFixed(0)} pages/s); ` +
        `search (${s.queries} queries) p50 ${s.p50Ms.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms, max ${s.maxMs.toFixed(1)} ms`,
    )
    .join("\n");
}
