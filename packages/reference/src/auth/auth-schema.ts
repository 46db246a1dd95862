// The authorization server's tables (issue 15): oidc-provider's clients, grants, sessions, interactions, codes and
// tokens (one row per stored model instance), the server's own secrets (signing keys, cookie keys), the account
// pages' users and sessions. Kept apart from reference/store/schema.ts so the platform's stores never see them; one
// Kysely schema serves SQLite and PostgreSQL.
import type { ColumnType, Kysely } from "kysely";
import type { Database, Dialect } from "../store/schema.ts";

export interface OidcPayloadsTable {
  /** `${model}:${id}`: one key space for every model */
  key: string;
  model: string;
  /** the oidc-provider payload, JSON */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** epoch ms; null: no expiry */
  expires_at: ColumnType<number | null, number | null, number | null>;
}

export interface AuthSecretsTable {
  name: string;
  /** JSON */
  value: string;
}

export interface UsersTable {
  id: string;
  login: string;
  /** argon2id, PHC string */
  password_hash: string;
  account_id: string;
  created_at: string;
}

export interface AccountSessionsTable {
  id_hash: string;
  user_id: string;
  expires_at: ColumnType<number, number, number>;
}

export interface AuthDatabase extends Database {
  oidc_payloads: OidcPayloadsTable;
  auth_secrets: AuthSecretsTable;
  users: UsersTable;
  account_sessions: AccountSessionsTable;
}

/** The platform's database seen with the authorization server's tables too. */
export const authView = (db: Kysely<Database>) => db as unknown as Kysely<AuthDatabase>;

/** Creates the tables when they are missing (idempotent; both dialects). */
export async function migrateAuth(db: Kysely<AuthDatabase>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("oidc_payloads")
    .ifNotExists()
    .addColumn("key", "varchar(320)", (c) => c.primaryKey())
    .addColumn("model", "varchar(64)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "varchar(255)")
    .addColumn("uid", "varchar(255)")
    .addColumn("user_code", "varchar(255)")
    .addColumn("expires_at", "bigint")
    .execute();
  await db.schema.createIndex("oidc_payloads_grant").ifNotExists().on("oidc_payloads").column("grant_id").execute();
  await db.schema.createIndex("oidc_payloads_uid").ifNotExists().on("oidc_payloads").column("uid").execute();
  await db.schema
    .createTable("auth_secrets")
    .ifNotExists()
    .addColumn("name", "varchar(64)", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("users")
    .ifNotExists()
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("login", "varchar(128)", (c) => c.notNull().unique())
    .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
    .addColumn("account_id", "varchar(64)", (c) => c.notNull().references("accounts.id"))
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("account_sessions")
    .ifNotExists()
    .addColumn("id_hash", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "varchar(64)", (c) => c.notNull().references("users.id"))
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}
