// The deepcrawl tables (issue 11): tasks with a lease (owner and expiry) so a crashed worker's task is taken over,
// the pages of each task (its frontier and its fetched documents, so neither a page list nor a package is held in
// memory and a restarted task keeps what it fetched), and the server secrets every instance shares (the zipUrl
// signing key). Kept beside schema.ts, created on first use, both dialects.

import type { Schemas } from "@plumbline-kit/contract";
import type { DeepcrawlState } from "@plumbline-kit/platform/deepcrawl-service";
import { type Generated, type Kysely, sql } from "kysely";
import type { Database, Dialect } from "./schema.ts";

export interface DeepcrawlTasksTable {
  task_id: string;
  account_id: string;
  url: string;
  type: "sitemap" | "all";
  status: DeepcrawlState;
  message: string;
  error: string | null;
  created_at: string;
  /** first claimed by a worker; the duration limit runs from here, across restarts */
  started_at: string | null;
  completed_at: string | null;
  /** the package's key in the package store, once completed */
  r2_key: string | null;
  package_bytes: number | null;
  limit_reached: NonNullable<Schemas["DeepcrawlManifest"]["limitReached"]> | null;
  /** 1 once the URLs to visit are in deepcrawl_pages (discovery is not repeated after a restart) */
  discovered: number;
  /** how many times a worker claimed the task; a task interrupted too often fails */
  attempts: number;
  lease_owner: string | null;
  /** epoch ms; bigint, so PostgreSQL hands it back as a string */
  lease_until: number | null;
  /** the request that started the task: a failed task refunds the ledger's charge for it (D-charging) */
  request_id: string | null;
}

export interface DeepcrawlPagesTable {
  id: Generated<number>;
  task_id: string;
  url: string;
  /** links followed from the start page (`all` mode's breadth-first order) */
  depth: number;
  state: "pending" | "done";
  status: number;
  title: string | null;
  /** path of the document in the zip; null for a page that failed */
  path: string | null;
  /** the whole Markdown document (front matter included) as it goes into the zip */
  document: string | null;
  bytes: number;
  fetched_at: string | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export type DeepcrawlTables = {
  deepcrawl_tasks: DeepcrawlTasksTable;
  deepcrawl_pages: DeepcrawlPagesTable;
  server_secrets: ServerSecretsTable;
};

export type DeepcrawlDb = Kysely<Database & DeepcrawlTables>;

export async function migrateDeepcrawl(base: Kysely<Database>, dialect: Dialect): Promise<DeepcrawlDb> {
  const db = base.withTables<DeepcrawlTables>();
  await db.schema
    .createTable("deepcrawl_tasks")
    .ifNotExists()
    .addColumn("task_id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("account_id", "varchar(64)", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("type", "varchar(16)", (c) => c.notNull())
    .addColumn("status", "varchar(16)", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("started_at", "varchar(32)")
    .addColumn("completed_at", "varchar(32)")
    .addColumn("r2_key", "varchar(200)")
    .addColumn("package_bytes", "bigint")
    .addColumn("limit_reached", "varchar(16)")
    .addColumn("discovered", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "varchar(64)")
    .addColumn("lease_until", "bigint")
    .addColumn("request_id", "varchar(160)")
    .execute();
  // a database made before failed tasks were refunded: the column is added (null for its tasks: no refund)
  if (dialect === "postgres")
    await sql`alter table deepcrawl_tasks add column if not exists request_id varchar(160)`.execute(db);
  else {
    const columns = await sql<{ name: string }>`pragma table_info(deepcrawl_tasks)`.execute(db);
    if (!columns.rows.some((c) => c.name === "request_id"))
      await sql`alter table deepcrawl_tasks add column request_id varchar(160)`.execute(db);
  }
  await db.schema
    .createIndex("deepcrawl_tasks_claim")
    .ifNotExists()
    .on("deepcrawl_tasks")
    .columns(["status", "created_at"])
    .execute();
  await db.schema
    .createTable("deepcrawl_pages")
    .ifNotExists()
    .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (c) =>
      dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("task_id", "varchar(64)", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("depth", "integer", (c) => c.notNull())
    .addColumn("state", "varchar(16)", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("title", "text")
    .addColumn("path", "text")
    .addColumn("document", "text")
    .addColumn("bytes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("fetched_at", "varchar(32)")
    .addUniqueConstraint("deepcrawl_pages_task_url", ["task_id", "url"])
    .execute();
  await db.schema
    .createIndex("deepcrawl_pages_frontier")
    .ifNotExists()
    .on("deepcrawl_pages")
    .columns(["task_id", "state", "id"])
    .execute();
  await db.schema
    .createTable("server_secrets")
    .ifNotExists()
    .addColumn("name", "varchar(64)", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  return db;
}

/** The named secret, created once by whichever instance comes first; every instance reads the same value. */
export async function sharedSecret(db: DeepcrawlDb, name: string, fresh: () => string): Promise<string> {
  await db
    .insertInto("server_secrets")
    .values({ name, value: fresh() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("server_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}
