// Deepcrawl tasks and their pages in SQL (issue 11). A worker claims a task with one conditional UPDATE: on
// PostgreSQL its candidate row is picked `FOR UPDATE SKIP LOCKED`, so instances sharing the database never take the
// same task; on SQLite writes are serialised anyway. A claim is a lease (owner + expiry) the worker renews while it
// works: a task whose worker died (kill -9, a restart) is claimed again once the lease runs out. Every write a
// worker makes is conditional on still holding the lease, so a worker that lost it cannot finish the task too.
import { type Kysely, sql } from "kysely";
import {
  type DeepcrawlDb,
  type DeepcrawlPagesTable,
  type DeepcrawlTasksTable,
  migrateDeepcrawl,
  sharedSecret,
} from "./deepcrawl-schema.ts";
import type { Database, Dialect } from "./schema.ts";

export type TaskRow = DeepcrawlTasksTable;
export type PageRow = Omit<DeepcrawlPagesTable, "id"> & { id: number };
export type TaskPatch = Partial<
  Pick<
    DeepcrawlTasksTable,
    "status" | "message" | "error" | "completed_at" | "r2_key" | "package_bytes" | "limit_reached" | "discovered"
  >
>;
export interface PageResult {
  status: number;
  title: string | null;
  path: string | null;
  document: string | null;
  bytes: number;
  fetchedAt: string;
}

// a task runs until it reaches an end state (D-deepcrawl-states); only a running task is claimed or written to
const ENDED = ["completed", "failed"] as const;

const task = (r: DeepcrawlTasksTable | undefined): TaskRow | null =>
  r
    ? {
        ...r,
        lease_until: r.lease_until === null ? null : Number(r.lease_until),
        package_bytes: r.package_bytes === null ? null : Number(r.package_bytes),
        attempts: Number(r.attempts),
        discovered: Number(r.discovered),
      }
    : null;

export interface SqlDeepcrawlStore {
  dialect: Dialect;
  insertTask(
    row: Pick<TaskRow, "task_id" | "account_id" | "url" | "type" | "message" | "created_at"> & {
      request_id?: string | null;
    },
  ): Promise<void>;
  getTask(taskId: string): Promise<TaskRow | null>;
  /** Takes the oldest task that no live lease holds, for `leaseMs` from `nowMs`; null when there is none. */
  claim(owner: string, nowMs: number, leaseMs: number): Promise<TaskRow | null>;
  /** Extends the lease; false when `owner` no longer holds it (the task then belongs to someone else). */
  renew(taskId: string, owner: string, untilMs: number): Promise<boolean>;
  /** Writes to a running task the owner still holds; false when it lost the lease or the task ended. */
  update(taskId: string, owner: string, patch: TaskPatch): Promise<boolean>;
  /** Lets the task go at once (a clean shutdown), so another worker need not wait for the lease to run out. */
  release(taskId: string, owner: string): Promise<void>;
  /** Adds URLs to visit; a URL already listed for the task is skipped. Returns how many were new. */
  addPages(taskId: string, pages: Array<{ url: string; depth: number }>): Promise<number>;
  countPages(taskId: string): Promise<number>;
  /** The URLs of `urls` the task does not list yet. */
  unlisted(taskId: string, urls: string[]): Promise<string[]>;
  pendingPages(taskId: string, limit: number): Promise<Array<{ url: string; depth: number }>>;
  savePage(taskId: string, url: string, result: PageResult): Promise<void>;
  /** Fetched pages in the order they were found, after id `afterId` (keyset paging: never the whole list at once). */
  donePages(taskId: string, afterId: number, limit: number): Promise<PageRow[]>;
  stats(taskId: string): Promise<{ done: number; pending: number; bytes: number }>;
  /** Pages that will not be fetched (a limit was reached) leave the list. */
  dropPending(taskId: string): Promise<void>;
  /** The fetched documents are in the package now; only the task row stays. */
  deletePages(taskId: string): Promise<void>;
  secret(name: string, fresh: () => string): Promise<string>;
  /** Tasks that ended failed at or after `sinceIso` and know the request that started them, oldest first. */
  failedSince(sinceIso: string, limit: number): Promise<TaskRow[]>;
}

export async function createSqlDeepcrawlStore(base: Kysely<Database>, dialect: Dialect): Promise<SqlDeepcrawlStore> {
  const db: DeepcrawlDb = await migrateDeepcrawl(base, dialect);
  return {
    dialect,
    async insertTask(row) {
      await db
        .insertInto("deepcrawl_tasks")
        .values({
          ...row,
          request_id: row.request_id ?? null,
          status: "queued",
          error: null,
          started_at: null,
          completed_at: null,
          r2_key: null,
          package_bytes: null,
          limit_reached: null,
          discovered: 0,
          attempts: 0,
          lease_owner: null,
          lease_until: null,
        })
        .execute();
    },
    async failedSince(sinceIso, limit) {
      const rows = await db
        .selectFrom("deepcrawl_tasks")
        .selectAll()
        .where("status", "=", "failed")
        .where("request_id", "is not", null)
        .where("completed_at", ">=", sinceIso)
        .orderBy("completed_at")
        .limit(limit)
        .execute();
      return rows.map((r) => task(r) as TaskRow);
    },
    async getTask(taskId) {
      return task(await db.selectFrom("deepcrawl_tasks").selectAll().where("task_id", "=", taskId).executeTakeFirst());
    },
    async claim(owner, nowMs, leaseMs) {
      const startedAt = new Date(nowMs).toISOString();
      if (dialect === "postgres") {
        // the candidate is locked in a CTE (evaluated once), skipping rows another claim holds: concurrent claims
        // from any number of instances each get a different task or none
        const r = await sql<DeepcrawlTasksTable>`
          with next as (
            select task_id from deepcrawl_tasks
            where status in ('queued', 'waiting', 'processing') and (lease_until is null or lease_until < ${nowMs})
            order by created_at limit 1
            for update skip locked
          )
          update deepcrawl_tasks t
          set lease_owner = ${owner}, lease_until = ${nowMs + leaseMs}, attempts = t.attempts + 1,
            status = case when t.status = 'queued' then 'waiting' else t.status end,
            started_at = coalesce(t.started_at, ${startedAt})
          from next where t.task_id = next.task_id
          returning t.*`.execute(db);
        return task(r.rows[0]);
      }
      // SQLite runs one write at a time: the subquery and the update cannot interleave with another claim
      const row = await db
        .updateTable("deepcrawl_tasks")
        .set({
          lease_owner: owner,
          lease_until: nowMs + leaseMs,
          attempts: sql`attempts + 1`,
          // D-deepcrawl-states: a worker took it (waiting for its turn at the site); a resumed task keeps its state
          status: sql`case when status = 'queued' then 'waiting' else status end`,
          started_at: sql`coalesce(started_at, ${startedAt})`,
        })
        .where("task_id", "in", (eb) =>
          eb
            .selectFrom("deepcrawl_tasks")
            .select("task_id")
            .where("status", "not in", ENDED)
            .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<", nowMs)]))
            .orderBy("created_at")
            .limit(1),
        )
        .returningAll()
        .executeTakeFirst();
      return task(row);
    },
    async renew(taskId, owner, untilMs) {
      const r = await db
        .updateTable("deepcrawl_tasks")
        .set({ lease_until: untilMs })
        .where("task_id", "=", taskId)
        .where("lease_owner", "=", owner)
        .where("status", "not in", ENDED)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async update(taskId, owner, patch) {
      const r = await db
        .updateTable("deepcrawl_tasks")
        .set(patch)
        .where("task_id", "=", taskId)
        .where("lease_owner", "=", owner)
        .where("status", "not in", ENDED)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async release(taskId, owner) {
      await db
        .updateTable("deepcrawl_tasks")
        .set({ lease_until: 0 })
        .where("task_id", "=", taskId)
        .where("lease_owner", "=", owner)
        .where("status", "not in", ENDED)
        .execute();
    },
    async addPages(taskId, pages) {
      if (pages.length === 0) return 0;
      const r = await db
        .insertInto("deepcrawl_pages")
        .values(
          pages.map((p) => ({
            task_id: taskId,
            url: p.url,
            depth: p.depth,
            state: "pending" as const,
            status: 0,
            title: null,
            path: null,
            document: null,
            bytes: 0,
            fetched_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(["task_id", "url"]).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0);
    },
    async countPages(taskId) {
      const r = await db
        .selectFrom("deepcrawl_pages")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("task_id", "=", taskId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async unlisted(taskId, urls) {
      if (urls.length === 0) return [];
      const known = new Set<string>();
      for (let i = 0; i < urls.length; i += 500) {
        const rows = await db
          .selectFrom("deepcrawl_pages")
          .select("url")
          .where("task_id", "=", taskId)
          .where("url", "in", urls.slice(i, i + 500))
          .execute();
        for (const r of rows) known.add(r.url);
      }
      return urls.filter((u) => !known.has(u));
    },
    async pendingPages(taskId, limit) {
      return db
        .selectFrom("deepcrawl_pages")
        .select(["url", "depth"])
        .where("task_id", "=", taskId)
        .where("state", "=", "pending")
        .orderBy("id")
        .limit(limit)
        .execute();
    },
    async savePage(taskId, url, r) {
      await db
        .updateTable("deepcrawl_pages")
        .set({
          state: "done",
          status: r.status,
          title: r.title,
          path: r.path,
          document: r.document,
          bytes: r.bytes,
          fetched_at: r.fetchedAt,
        })
        .where("task_id", "=", taskId)
        .where("url", "=", url)
        .execute();
    },
    async donePages(taskId, afterId, limit) {
      const rows = await db
        .selectFrom("deepcrawl_pages")
        .selectAll()
        .where("task_id", "=", taskId)
        .where("state", "=", "done")
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status), bytes: Number(r.bytes) }));
    },
    async stats(taskId) {
      const rows = await db
        .selectFrom("deepcrawl_pages")
        .select(["state", (eb) => eb.fn.countAll().as("n"), (eb) => eb.fn.sum("bytes").as("bytes")])
        .where("task_id", "=", taskId)
        .groupBy("state")
        .execute();
      const of = (s: string) => rows.find((r) => r.state === s);
      return {
        done: Number(of("done")?.n ?? 0),
        pending: Number(of("pending")?.n ?? 0),
        bytes: Number(of("done")?.bytes ?? 0),
      };
    },
    async dropPending(taskId) {
      await db.deleteFrom("deepcrawl_pages").where("task_id", "=", taskId).where("state", "=", "pending").execute();
    },
    async deletePages(taskId) {
      await db.deleteFrom("deepcrawl_pages").where("task_id", "=", taskId).execute();
    },
    secret: (name, fresh) => sharedSecret(db, name, fresh),
  };
}
