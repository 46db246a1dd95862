// The page index on the scaled store: PostgreSQL full-text search. Each page is indexed with the text search
// configuration of its declared language (text-search-config.ts: stemming and stop words per language), the title
// weighted A and the body B, and ranked with ts_rank_cd; the query is parsed by websearch_to_tsquery under each
// page's own configuration, so "laufen" finds a German page saying "läuft" and "running" an English one saying
// "runs". Stemmed lexemes cannot serve prefixes ("connecti*" is no stem of "connection"), so prefix terms match
// `tsv_raw`, the same text under `simple`.
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
import { allElseAny, foldDiacritics, parseQuery, postgresParts, type QueryTerm } from "./query-terms.ts";
import { ALL_CONFIGS, textSearchConfig } from "./text-search-config.ts";

// biome-ignore lint/suspicious/noExplicitAny: the index owns tables outside the platform's typed schema
type Db = Kysely<any>;

async function migrate(db: Db): Promise<void> {
  await sql`create table if not exists search_pages (
    id serial primary key, url text not null unique, host text not null, title text not null,
    markdown text not null, description text, language text, published_at timestamptz,
    fetched_at timestamptz not null, dated_at timestamptz not null, ts_config text not null,
    tsv tsvector not null, tsv_raw tsvector not null, images text)`.execute(db);
  await sql`alter table search_pages add column if not exists images text`.execute(db);
  // a timestamptz keeps no precision: whether the page gave its publication day alone (D-result-fields)
  await sql`alter table search_pages add column if not exists published_day boolean not null default false`.execute(db);
  await sql`create index if not exists search_pages_tsv on search_pages using gin (tsv)`.execute(db);
  await sql`create index if not exists search_pages_tsv_raw on search_pages using gin (tsv_raw)`.execute(db);
  await sql`create index if not exists search_pages_dated on search_pages (dated_at)`.execute(db);
}

interface Row {
  url: string;
  title: string;
  markdown: string;
  description: string | null;
  published_at: Date | null;
  published_day: boolean;
  fetched_at: Date;
  images: string | null;
  r: number;
}

/** The match and score of one page, under its own configuration `p.ts_config`. */
function matchExpr(terms: QueryTerm[], mode: "all" | "any") {
  const { websearch, prefixes } = postgresParts(terms);
  const ws = foldDiacritics(websearch.join(mode === "all" ? " " : " or "));
  // parsed once per configuration (q), not once per row, so the GIN index on tsv can serve each
  const stemmed = sql`q.tq`;
  const from =
    websearch.length > 0
      ? sql`search_pages p join (select cfg, websearch_to_tsquery(cfg::regconfig, ${ws}) as tq
          from unnest(${ALL_CONFIGS}::text[]) as cfg) q on q.cfg = p.ts_config`
      : sql`search_pages p`;
  const join = mode === "all" ? " & " : " | ";
  const prefix = sql`to_tsquery('simple', ${prefixes.map((w) => `'${foldDiacritics(w)}':*`).join(join)})`;
  const conds = [];
  const ranks = [];
  if (websearch.length > 0) {
    conds.push(sql`p.tsv @@ ${stemmed}`);
    ranks.push(sql`ts_rank_cd(p.tsv, ${stemmed})`);
  }
  if (prefixes.length > 0) {
    conds.push(sql`p.tsv_raw @@ ${prefix}`);
    ranks.push(sql`ts_rank_cd(p.tsv_raw, ${prefix})`);
  }
  return {
    from,
    where: sql`(${sql.join(conds, mode === "all" ? sql` and ` : sql` or `)})`,
    rank: sql.join(ranks, sql` + `),
  };
}

function filters(q: IndexQuery) {
  const parts = [sql`true`];
  if (q.publishedOnly) parts.push(sql`p.published_at is not null`);
  if (q.since) parts.push(sql`p.dated_at >= ${q.since}::timestamptz`);
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

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function createPostgresPageIndex(db: Db): PageIndex & { ready: Promise<void> } {
  const ready = migrate(db);
  return {
    ready,
    async add(page: IndexedPage) {
      await ready;
      // NUL bytes are refused by PostgreSQL text columns
      const body = page.markdown.slice(0, MAX_INDEXED_CHARS).replaceAll("\u0000", "");
      const title = page.title.replaceAll("\u0000", "");
      const cfg = textSearchConfig(page.language);
      // accents folded before stemming, as SQLite's remove_diacritics does: "crepe" finds "crêpes"
      const [ftitle, fbody] = [foldDiacritics(title), foldDiacritics(body)];
      const published = isoDate(page.publishedAt);
      const day = publishedOf(page.publishedAt) !== published;
      const fetched = isoDate(page.fetchedAt) ?? new Date().toISOString();
      await sql`insert into search_pages
        (url, host, title, markdown, description, language, published_at, fetched_at, dated_at, ts_config, tsv, tsv_raw,
         images, published_day)
        values (${pageUrl(page.url)}, ${hostOf(page.url)}, ${title}, ${body}, ${page.description ?? null},
          ${page.language ?? null}, ${published}::timestamptz, ${fetched}::timestamptz,
          ${published ?? fetched}::timestamptz, ${cfg},
          setweight(to_tsvector(${cfg}::regconfig, ${ftitle}), 'A') || setweight(to_tsvector(${cfg}::regconfig, ${fbody}), 'B'),
          setweight(to_tsvector('simple', ${ftitle}), 'A') || setweight(to_tsvector('simple', ${fbody}), 'B'),
          ${JSON.stringify(page.images ?? [])}, ${day})
        on conflict (url) do update set host = excluded.host, title = excluded.title, markdown = excluded.markdown,
          description = excluded.description, language = excluded.language, published_at = excluded.published_at,
          fetched_at = excluded.fetched_at, dated_at = excluded.dated_at, ts_config = excluded.ts_config,
          tsv = excluded.tsv, tsv_raw = excluded.tsv_raw, images = excluded.images,
          published_day = excluded.published_day`.execute(db);
    },
    async search(q: IndexQuery): Promise<IndexHit[]> {
      await ready;
      const terms = parseQuery(q.query);
      if (terms.length === 0) return [];
      const run = async (mode: "all" | "any", limit: number, offset: number) => {
        const m = matchExpr(terms, mode);
        const rows = await sql<Row>`select * from (
            select p.id, p.url, p.title, p.markdown, p.description, p.published_at, p.published_day, p.fetched_at,
              p.images, ${m.rank} as r
            from ${m.from} where ${m.where} and ${filters(q)}) hits
          order by r desc, id asc limit ${limit} offset ${offset}`.execute(db);
        return rows.rows.map(
          (r): IndexHit => ({
            url: r.url,
            title: r.title,
            markdown: r.markdown,
            description: r.description,
            publishedAt: r.published_day ? (iso(r.published_at)?.slice(0, 10) ?? null) : iso(r.published_at),
            fetchedAt: iso(r.fetched_at) as string,
            images: imageList(r.images),
            score: Number(r.r),
          }),
        );
      };
      return allElseAny(terms.length, run, q.limit, q.offset);
    },
    async count() {
      await ready;
      const r = await sql<{ n: string }>`select count(*) as n from search_pages`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },
  };
}
