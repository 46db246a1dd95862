// POST /feedback's reports in the reference's database (the live contract, D-feedback): one row per report, written
// before the 201 is sent (the platform's feedback route awaits `add`), so a report survives a restart and every
// instance on a PostgreSQL database sees the same reports. Its own table and migration, on the accounts' connection.
// The account page lists an account's own reports; `plumbline reference feedback list` lists them all (the operator).
import type { FeedbackReport, FeedbackStore } from "@plumbline-kit/platform/stores";
import type { Generated, Kysely } from "kysely";
import type { Database, Dialect } from "./schema.ts";

interface FeedbackTable {
  /** the order reports were kept in: "newest first" is by it (the clock's times may tie) */
  seq: Generated<number>;
  id: string;
  account_id: string;
  /** the x-request-id of the POST /feedback call */
  request_id: string;
  /** ISO date-time on the reference's clock */
  received_at: string;
  category: string;
  message: string;
  intent: string | null;
  /** the body's request_id: the call the report is about */
  about_request_id: string | null;
  /** the body's agent object as sent (JSON), null when absent */
  agent: string | null;
}

export interface FeedbackTables {
  feedback_reports: FeedbackTable;
}

type Db = Kysely<Database & FeedbackTables>;

export async function migrateFeedback(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const d = db as unknown as Db;
  await d.schema
    .createTable("feedback_reports")
    .ifNotExists()
    .addColumn("seq", dialect === "postgres" ? "serial" : "integer", (c) =>
      dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("id", "varchar(32)", (c) => c.notNull().unique())
    .addColumn("account_id", "varchar(64)", (c) => c.notNull())
    .addColumn("request_id", "varchar(160)", (c) => c.notNull())
    .addColumn("received_at", "varchar(32)", (c) => c.notNull())
    .addColumn("category", "varchar(24)", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("intent", "text")
    .addColumn("about_request_id", "varchar(256)")
    .addColumn("agent", "text")
    .execute();
  // the account page reads one account's newest reports
  await d.schema
    .createIndex("feedback_reports_account")
    .ifNotExists()
    .on("feedback_reports")
    .columns(["account_id", "seq"])
    .execute();
}

export interface SqlFeedbackStore extends FeedbackStore {
  /** one account's reports, newest first, at most `limit` (the account page) */
  listForAccount(accountId: string, limit: number): Promise<FeedbackReport[]>;
  /** every report, newest first, at most `limit` when given (the operator's listing) */
  listNewest(limit?: number): Promise<FeedbackReport[]>;
}

function reportOf(r: Omit<FeedbackTable, "seq">): FeedbackReport {
  return {
    id: r.id,
    accountId: r.account_id,
    requestId: r.request_id,
    receivedAt: r.received_at,
    message: r.message,
    category: r.category as FeedbackReport["category"],
    ...(r.intent !== null ? { intent: r.intent } : {}),
    ...(r.about_request_id !== null ? { request_id: r.about_request_id } : {}),
    ...(r.agent !== null ? { agent: JSON.parse(r.agent) as FeedbackReport["agent"] } : {}),
  };
}

export function createSqlFeedbackStore(db: Kysely<Database>): SqlFeedbackStore {
  const d = db as unknown as Db;
  const newest = () => d.selectFrom("feedback_reports").selectAll().orderBy("seq", "desc");
  return {
    async add(report) {
      // resolves once the row is committed: the route answers 201 only then, 503 when this throws
      await d
        .insertInto("feedback_reports")
        .values({
          id: report.id,
          account_id: report.accountId,
          request_id: report.requestId,
          received_at: report.receivedAt,
          category: report.category,
          message: report.message,
          intent: report.intent ?? null,
          about_request_id: report.request_id ?? null,
          agent: report.agent === undefined ? null : JSON.stringify(report.agent),
        })
        .execute();
    },
    async list() {
      const rows = await d.selectFrom("feedback_reports").selectAll().orderBy("seq", "asc").execute();
      return rows.map(reportOf);
    },
    async listNewest(limit) {
      const rows = await (limit ? newest().limit(limit) : newest()).execute();
      return rows.map(reportOf);
    },
    async listForAccount(accountId, limit) {
      const rows = await newest().where("account_id", "=", accountId).limit(limit).execute();
      return rows.map(reportOf);
    },
  };
}
