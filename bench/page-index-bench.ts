// Benchmark (a script, not a test): how fast the page index adds and searches on SQLite and PostgreSQL, over a
// synthetic corpus of N pages of about 400 words drawn from a fixed vocabulary (deterministic).
//   node --import tsx bench/page-index-bench.ts [pages] [postgres://…]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPageIndex } from "../reference/search/create-page-index.ts";
import { openDatabase } from "../reference/store/open-database.ts";

const pages = Number(process.argv[2] ?? 5000);
const pgUrl = process.argv[3];
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100_000}x${i % 13}`);
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
// Zipf-like: common words often, rare words seldom
const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)];
const text = (n: number) => Array.from({ length: n }, word).join(" ");

async function run(label: string, opened: Awaited<ReturnType<typeof openDatabase>>) {
  const index = await createPageIndex(opened);
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
  const queries = Array.from({ length: 200 }, (_, i) =>
    i % 4 === 3 ? `"${word()} ${word()}"` : `${word()} ${word()}`,
  );
  const times: number[] = [];
  for (const q of queries) {
    t = performance.now();
    await index.search({ query: q, limit: 10, offset: 0 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p = (x: number) => times[Math.min(times.length - 1, Math.floor(x * times.length))].toFixed(1);
  console.log(
    `${label}: ${pages} pages added in ${(addMs / 1000).toFixed(1)} s (${((pages * 1000) / addMs).toFixed(0)} pages/s); ` +
      `search (200 queries) p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${p(1)} ms`,
  );
  await index.close?.();
}

const dir = mkdtempSync(join(tmpdir(), "plumbline-index-bench-"));
try {
  const sqlite = await openDatabase({ dataDir: dir });
  await run("sqlite", sqlite);
  await sqlite.close();
  if (pgUrl) {
    const { freshPostgresSchema } = await import("../test-support/postgres-schema.ts");
    const pg = await openDatabase({ databaseUrl: await freshPostgresSchema(pgUrl, "plumbline_index_bench") });
    await run("postgres", pg);
    await pg.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
