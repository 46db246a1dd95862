// The index used to live in the reference's own database (plumbline.db); it now has a file of its own, written by
// its own thread (index-thread.ts). An index found in the old place is moved once: copied in one transaction when
// the new file holds no page yet, then dropped from the old file (a crash in between copies nothing twice: the next
// start finds pages in the new file and only drops the old tables).
import { existsSync } from "node:fs";
import type SQLite from "better-sqlite3";
import { MAX_INDEXED_CHARS } from "./page-index.ts";

const COLUMNS = "url, host, title, markdown, description, language, published_at, fetched_at, dated_at";

export function moveLegacyIndex(sqlite: SQLite.Database, legacyFile: string): number {
  if (!existsSync(legacyFile)) return 0;
  sqlite.prepare("attach database ? as legacy").run(legacyFile);
  try {
    const found = sqlite
      .prepare("select 1 from legacy.sqlite_master where type = 'table' and name = 'search_pages'")
      .get();
    if (!found) return 0;
    const legacyColumns = sqlite.prepare("select name from pragma_table_info('search_pages', 'legacy')").all() as {
      name: string;
    }[];
    const images = legacyColumns.some((c) => c.name === "images") ? "images" : "'[]'";
    const empty = !sqlite.prepare("select 1 from main.search_pages limit 1").get();
    let moved = 0;
    if (empty)
      sqlite.transaction(() => {
        moved = sqlite
          .prepare(
            `insert into main.search_pages (${COLUMNS}, images) select ${COLUMNS}, ${images} from legacy.search_pages`,
          )
          .run().changes;
        for (const table of ["search_fts", "search_fts_raw"])
          sqlite
            .prepare(
              `insert into main.${table} (rowid, title, body) select id, title, substr(markdown, 1, ?) from main.search_pages`,
            )
            .run(MAX_INDEXED_CHARS);
      })();
    sqlite.transaction(() => {
      for (const table of ["search_fts", "search_fts_raw", "search_pages"])
        sqlite.exec(`drop table if exists legacy.${table}`);
    })();
    return moved;
  } finally {
    sqlite.exec("detach database legacy");
  }
}
