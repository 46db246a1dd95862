// SQLite statements kept for reuse under kysely (issue 12). Kysely's SQLite driver prepares every query's SQL anew
// (better-sqlite3 `prepare`: SQLite parses and plans the text each time), four or five times per crawl on the
// event loop. The few hot statements repeat verbatim, so each SQL text keeps its prepared statement, in a bounded
// map (least recently used out first: SQL built with lists of varying length must not grow it forever).
import type { Database as BetterSqlite, Statement } from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

export function cachedStatements(db: BetterSqlite, max = 256): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      // one statement may serve every query of its text: kysely holds its single SQLite connection for a query's
      // whole run (a stream's too), so no statement is ever asked to run twice at once
      const stmt = cache.get(sql) ?? db.prepare(sql);
      cache.delete(sql);
      cache.set(sql, stmt);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
      return stmt;
    },
  };
}
