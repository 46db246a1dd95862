// The page index of an opened reference database: FTS5 on SQLite, full-text search on PostgreSQL.
import type { OpenedDatabase } from "../store/open-database.ts";
import type { PageIndex } from "./page-index.ts";
import { createPostgresPageIndex } from "./postgres-page-index.ts";
import { createSqlitePageIndex } from "./sqlite-page-index.ts";

export async function createPageIndex(opened: Pick<OpenedDatabase, "db" | "dialect">): Promise<PageIndex> {
  const index = opened.dialect === "postgres" ? createPostgresPageIndex(opened.db) : createSqlitePageIndex(opened.db);
  await index.ready;
  return index;
}
