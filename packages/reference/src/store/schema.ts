// The reference's tables (issue 5 "Platform"): accounts with a balance, hashed API keys, an append-only credit
// ledger, the open holds and the instances that own them (issue 38), and the rate-limit windows. One Kysely schema
// serves SQLite and PostgreSQL, so the SQL is written once.
import { type ColumnType, type Generated, type Kysely, sql } from "kysely";

export interface AccountsTable {
  id: string;
  user_id: string | null;
  credential_type: "api_key" | "oauth";
  client_id: string | null;
  balance: number;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** readable start of the key, for listings and lookups; the rest is only ever stored hashed */
  prefix: string;
  /** sha256 of the whole key, hex */
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface LedgerTable {
  id: Generated<number>;
  account_id: string;
  operation_id: string;
  request_id: string;
  /** positive: a charge; negative: credits added by an administrator */
  credits: number;
  balance_after: number;
  at: ColumnType<string, string, never>;
}

/**
 * Credits reserved for a call in progress (issue 38): written with the debit in one transaction, deleted with the
 * ledger row (settle) or with the credit back (release), so a crash between the two loses nothing: the holds of an
 * instance that died are released when its lease runs out (instances below).
 */
export interface HoldsTable {
  id: string;
  account_id: string;
  credits: number;
  operation_id: string;
  request_id: string;
  /** the instance (one running server) that took the hold */
  instance_id: string;
  created_at: string;
}

/**
 * The running servers on this database, each with a lease it renews while it lives (as deepcrawl workers renew
 * their tasks' leases): a hold whose instance's lease ran out (or whose instance is gone) belongs to a dead process.
 * A restarted server is a new instance.
 */
export interface InstancesTable {
  id: string;
  started_at: string;
  /** epoch ms; bigint, so PostgreSQL hands it back as a string */
  lease_until: ColumnType<number, number, number>;
}

/** One fixed rate-limit window per key (an account, or an account and operation), shared by every instance. */
export interface RateLimitWindowsTable {
  key: string;
  /** epoch ms of the window's start; bigint, so PostgreSQL hands it back as a string */
  window_start: ColumnType<number, number, number>;
  count: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger: LedgerTable;
  holds: HoldsTable;
  instances: InstancesTable;
  rate_limit_windows: RateLimitWindowsTable;
}

export type Dialect = "sqlite" | "postgres";

/** Creates the tables when they are missing (idempotent; both dialects). */
export async function migrate(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("accounts")
    .ifNotExists()
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "varchar(64)")
    .addColumn("credential_type", "varchar(16)", (c) => c.notNull())
    .addColumn("client_id", "varchar(64)")
    .addColumn("balance", "integer", (c) => c.notNull().check(sqlNonNegative()))
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("api_keys")
    .ifNotExists()
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("account_id", "varchar(64)", (c) => c.notNull().references("accounts.id"))
    .addColumn("prefix", "varchar(32)", (c) => c.notNull().unique())
    .addColumn("hash", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("revoked_at", "varchar(32)")
    .execute();
  await db.schema
    .createTable("ledger")
    .ifNotExists()
    .addColumn("id", dialect === "postgres" ? "serial" : "integer", (c) =>
      dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("account_id", "varchar(64)", (c) => c.notNull().references("accounts.id"))
    .addColumn("operation_id", "varchar(64)", (c) => c.notNull())
    .addColumn("request_id", "varchar(160)", (c) => c.notNull())
    .addColumn("credits", "integer", (c) => c.notNull())
    .addColumn("balance_after", "integer", (c) => c.notNull())
    .addColumn("at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("rate_limit_windows")
    .ifNotExists()
    .addColumn("key", "varchar(200)", (c) => c.primaryKey())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();
  // a refund reads the charges of one request (D-charging), at every failed deepcrawl and again at start
  await db.schema
    .createIndex("ledger_request")
    .ifNotExists()
    .on("ledger")
    .columns(["account_id", "request_id"])
    .execute();
  // issue 38: tables a data directory of an earlier version lacks are simply created here
  await db.schema
    .createTable("holds")
    .ifNotExists()
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("account_id", "varchar(64)", (c) => c.notNull().references("accounts.id"))
    .addColumn("credits", "integer", (c) => c.notNull())
    .addColumn("operation_id", "varchar(64)", (c) => c.notNull())
    .addColumn("request_id", "varchar(160)", (c) => c.notNull())
    .addColumn("instance_id", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("holds_instance").ifNotExists().on("holds").column("instance_id").execute();
  await db.schema
    .createTable("instances")
    .ifNotExists()
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("started_at", "varchar(32)", (c) => c.notNull())
    .addColumn("lease_until", "bigint", (c) => c.notNull())
    .execute();
}

// a balance never goes below zero, whatever a buggy caller does (D-charging: never overdraw)
function sqlNonNegative() {
  return sql`balance >= 0`;
}
