// One query layer for both stores (issue 5): SQLite in --data-dir by default (zero set-up), PostgreSQL with
// --database-url postgres://… for deployments of several instances.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { type Database, type Dialect, migrate } from "./schema.ts";
import { cachedStatements } from "./statement-cache.ts";

export interface OpenedDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  /** where the data lives, for logs (a file path, or the URL without its password) */
  location: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; absent: SQLite in dataDir */
  databaseUrl?: string;
  dataDir?: string;
  /**
   * SQLite's commit durability (default "normal"): in WAL mode "normal" survives a crash of the process but may lose
   * the last commits on a power loss, and spares every commit an fsync on the event loop (issue 12: two or three
   * ledger and index commits per crawl); "full" syncs each commit
   */
  sqliteSynchronous?: "normal" | "full";
}

/** A SQLite connection as every store of the reference opens one (the page index's thread too). */
export function openSqlite(
  file: string,
  synchronous: DatabaseOptions["sqliteSynchronous"] = "normal",
): SQLite.Database {
  const sqlite = new SQLite(file);
  // WAL: readers never wait for the writer; busy_timeout: concurrent processes wait instead of failing
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
  return sqlite;
}

export async function openDatabase(o: DatabaseOptions): Promise<OpenedDatabase> {
  let db: Kysely<Database>;
  let dialect: Dialect;
  let location: string;
  if (o.databaseUrl) {
    const url = new URL(o.databaseUrl);
    if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
      throw new Error(`--database-url must be a postgres:// URL, not ${url.protocol}`);
    }
    dialect = "postgres";
    location = `${url.protocol}//${url.username ? `${url.username}@` : ""}${url.host}${url.pathname}`;
    // the PostgreSQL driver is loaded only when a deployment asks for it (issue 36)
    const { default: pg } = await import("pg");
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: o.databaseUrl, max: 10 }) }),
    });
  } else {
    const dir = o.dataDir ?? "data";
    mkdirSync(dir, { recursive: true });
    location = join(dir, "plumbline.db");
    const sqlite = openSqlite(location, o.sqliteSynchronous);
    dialect = "sqlite";
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) });
  }
  await migrate(db, dialect);
  return { db, dialect, location, close: () => db.destroy() };
}
