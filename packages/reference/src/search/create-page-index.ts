// The page index of an opened reference database: FTS5 on SQLite (in a thread and a file of its own,
// index-thread.ts), full-text search on PostgreSQL.
import type { OpenedDatabase } from "../store/open-database.ts";
import { createThreadedSqlitePageIndex } from "./index-thread.ts";
import type { PageIndex } from "./page-index.ts";
import { createPostgresPageIndex } from "./postgres-page-index.ts";

export async function createPageIndex(opened: Pick<OpenedDatabase, "db" | "dialect" | "location">): Promise<PageIndex> {
  if (opened.dialect !== "postgres") return createThreadedSqlitePageIndex(opened.location);
  const index = createPostgresPageIndex(opened.db);
  await index.ready;
  return index;
}
