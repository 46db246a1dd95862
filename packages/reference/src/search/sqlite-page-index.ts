// The page index on the embedded store: SQLite FTS5, ranked by bm25 with the title weighing 5× the body.
// Tokenizers (issue 14 "Relevance"): `search_fts` uses `porter unicode61 remove_diacritics 2`, so words of every
// script are split on Unicode letter/number classes and folded for case and diacritics (café = cafe, Ärger = arger),
// and English words are stemmed (running = runs = run); other languages get no stemming on SQLite (use PostgreSQL
// for that). Porter stems prefixes too ("connecti*" would look for a stem), so prefix terms go to `search_fts_raw`,
// the same text under `unicode61 remove_diacritics 2` alone. Scripts written without spaces (Chinese, Japanese) are
// indexed in runs of characters: a query matches whole runs only.
import { type Kysely, sql } from "kysely";
import { imageList } from "./page-images.ts";
import {
  hostOf,
  type IndexedPage,
  type IndexHit,
  type IndexQuery,
  isoDate,
  MAX_INDEXED_CHARS,
  type PageIndex,
  pageUrl,
  publishedOf,
  siteOf,
} from "./page-index.ts";
import { allElseAny, fts5Match, parseQuery, type QueryTerm } from "./query-terms.ts";

// biome-ignore lint/suspicious/noExplicitAny: the index owns tables outside the platform's typed schema
type Db = Kysely<any>;

async function migrate(db: Db): Promise<void> {
  await sql`create table if not exists search_pages (
    id integer primary key autoincrement, url text not null unique, host text not null, title text not null,
    markdown text not null, description text, language text, published_at text, fetched_at text not null,
    dated_at text not null, images text)`.execute(db);
  // an index made before pages carried their pictures gets the column (SQLite has no "add column if not exists")
  const columns = await sql<{ name: string }>`pragma table_info(search_pages)`.execute(db);
  if (!columns.rows.some((c) => c.name === "images"))
    await sql`alter table search_pages add column images text`.execute(db);
  await sql`create index if not exists search_pages_dated on search_pages (dated_at)`.execute(db);
  await sql`create virtual table if not exists search_fts using fts5(title, body,
    tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`create virtual table if not exists search_fts_raw using fts5(title, body,
    tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
}

function matchSql(terms: QueryTerm[], mode: "all" | "any") {
  const stemmed = terms.filter((t) => t.kind !== "prefix");
  const prefixes = terms.filter((t) => t.kind === "prefix");
  const s = sql`select rowid as id, bm25(search_fts, 5.0, 1.0) as r from search_fts where search_fts match ${fts5Match(stemmed, mode)}`;
  const p = sql`select rowid as id, bm25(search_fts_raw, 5.0, 1.0) as r from search_fts_raw where search_fts_raw match ${fts5Match(prefixes, mode)}`;
  if (prefixes.length === 0) return s;
  if (stemmed.length === 0) return p;
  return mode === "all"
    ? sql`select s.id as id, s.r + p.r as r from (${s}) s join (${p}) p on p.id = s.id`
    : sql`select coalesce(s.id, p.id) as id, coalesce(s.r, 0) + coalesce(p.r, 0) as r
          from (${s}) s full outer join (${p}) p on p.id = s.id`;
}

interface Row {
  url: string;
  title: string;
  markdown: string;
  description: string | null;
  published_at: string | null;
  fetched_at: string;
  images: string | null;
  r: number;
}

const toHit = (r: Row): IndexHit => ({
  url: r.url,
  title: r.title,
  markdown: r.markdown,
  description: r.description,
  publishedAt: r.published_at,
  fetchedAt: r.fetched_at,
  images: imageList(r.images),
  score: -Number(r.r),
});

function filters(q: IndexQuery) {
  const parts = [sql`1 = 1`];
  if (q.publishedOnly) parts.push(sql`p.published_at is not null`);
  if (q.since) parts.push(sql`p.dated_at >= ${q.since}`);
  if (q.language) {
    const primary = q.language.toLowerCase().split(/[-_]/)[0];
    parts.push(sql`(p.language is null or lower(p.language) = ${primary} or lower(p.language) like ${`${primary}-%`})`);
  }
  const site = (s: string) => sql`(p.host = ${s} or p.host like ${`%.${s}`})`;
  const inc = (q.includeSites ?? []).map(siteOf).filter(Boolean);
  const exc = (q.excludeSites ?? []).map(siteOf).filter(Boolean);
  if (inc.length > 0) parts.push(sql`(${sql.join(inc.map(site), sql` or `)})`);
  for (const s of exc) parts.push(sql`not ${site(s)}`);
  return sql.join(parts, sql` and `);
}

export function createSqlitePageIndex(db: Db): PageIndex & { ready: Promise<void> } {
  const ready = migrate(db);
  return {
    ready,
    async add(page: IndexedPage) {
      await ready;
      const body = page.markdown.slice(0, MAX_INDEXED_CHARS);
      // kept as given when a day alone (publishedOf); ordered and filtered by its full date-time (dated_at)
      const published = publishedOf(page.publishedAt);
      const fetched = isoDate(page.fetchedAt) ?? new Date().toISOString();
      const row = {
        url: pageUrl(page.url),
        host: hostOf(page.url),
        title: page.title,
        markdown: body,
        description: page.description ?? null,
        language: page.language ?? null,
        published_at: published,
        fetched_at: fetched,
        dated_at: isoDate(page.publishedAt) ?? fetched,
        images: JSON.stringify(page.images ?? []),
      };
      await db.transaction().execute(async (tx) => {
        // a page crawled again with the same title and text keeps its index entries: only its dates and metadata
        // change, so re-crawling a site (monitoring, a repeated deepcrawl) costs no tokenizing (issue 12)
        const same = await tx
          .selectFrom("search_pages")
          .select("id")
          .where("url", "=", row.url)
          .where("title", "=", row.title)
          .where("markdown", "=", row.markdown)
          .executeTakeFirst();
        if (same) {
          const { url: _url, title: _title, markdown: _markdown, ...changed } = row;
          await tx.updateTable("search_pages").set(changed).where("id", "=", same.id).execute();
          return;
        }
        const saved = await tx
          .insertInto("search_pages")
          .values(row)
          .onConflict((oc) => oc.column("url").doUpdateSet(row))
          .returning("id")
          .executeTakeFirstOrThrow();
        const id = Number(saved.id);
        for (const table of ["search_fts", "search_fts_raw"]) {
          await sql`delete from ${sql.table(table)} where rowid = ${id}`.execute(tx);
          await sql`insert into ${sql.table(table)} (rowid, title, body) values (${id}, ${page.title}, ${body})`.execute(
            tx,
          );
        }
      });
    },
    async search(q: IndexQuery): Promise<IndexHit[]> {
      await ready;
      const terms = parseQuery(q.query);
      if (terms.length === 0) return [];
      const run = async (mode: "all" | "any", limit: number, offset: number) => {
        const rows =
          await sql<Row>`select p.url, p.title, p.markdown, p.description, p.published_at, p.fetched_at, p.images, m.r
           from (${matchSql(terms, mode)}) m join search_pages p on p.id = m.id
           where ${filters(q)} order by m.r asc, p.id asc limit ${limit} offset ${offset}`.execute(db);
        return rows.rows.map(toHit);
      };
      return allElseAny(terms.length, run, q.limit, q.offset);
    },
    async count() {
      await ready;
      const r = await sql<{ n: number }>`select count(*) as n from search_pages`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },
  };
}
