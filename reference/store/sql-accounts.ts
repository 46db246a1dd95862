// Accounts, keys and the credit ledger in SQL, behind the platform's AccountStore (issue 5 "Platform"):
// a hold is one conditional UPDATE, so concurrent calls never overdraw or double-charge, on SQLite and PostgreSQL.
import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Account, AccountStore, Hold } from "../platform/stores.ts";
import { hashKey, keyMatches, keyPrefix, newApiKey } from "./api-keys.ts";
import type { Database } from "./schema.ts";

export interface KeyView {
  prefix: string;
  accountId: string;
  balance: number;
  credentialType: "api_key" | "oauth";
  createdAt: string;
  revokedAt: string | null;
}

export interface SqlAccounts extends AccountStore {
  /** Creates an account with one key; the key is returned once and never stored in clear. */
  createAccount(input: {
    credits: number;
    key?: string;
    credentialType?: "api_key" | "oauth";
  }): Promise<{ accountId: string; key: string }>;
  listKeys(): Promise<KeyView[]>;
  /** Revokes the key with this prefix (or the key itself) and issues a new one for the same account. */
  rotateKey(prefixOrKey: string): Promise<{ key: string } | null>;
  revokeKey(prefixOrKey: string): Promise<boolean>;
  /** Adds credits to the account of a key (a negative ledger entry, so the ledger explains every balance). */
  credit(prefixOrKey: string, credits: number): Promise<{ balance: number } | null>;
  ledger(accountId: string): Promise<Array<{ operationId: string; credits: number; balanceAfter: number; at: string }>>;
}

const id = (kind: string) => `${kind}_${randomBytes(8).toString("hex")}`;

export function createSqlAccounts(db: Kysely<Database>, now: () => number = Date.now): SqlAccounts {
  const iso = () => new Date(now()).toISOString();

  async function keyRow(prefixOrKey: string) {
    const prefix = keyPrefix(prefixOrKey);
    const rows = await db
      .selectFrom("api_keys")
      .selectAll()
      .where("prefix", "=", prefix)
      .where("revoked_at", "is", null)
      .execute();
    // a full key must match its hash; a bare prefix names the key for administration
    return rows.find((r) => prefixOrKey.length <= prefix.length || keyMatches(prefixOrKey, r.hash)) ?? null;
  }

  async function addKey(accountId: string, key: string) {
    await db
      .insertInto("api_keys")
      .values({
        id: id("key"),
        account_id: accountId,
        prefix: keyPrefix(key),
        hash: hashKey(key),
        created_at: iso(),
        revoked_at: null,
      })
      .execute();
  }

  return {
    async authenticate(credential) {
      const rows = await db
        .selectFrom("api_keys")
        .innerJoin("accounts", "accounts.id", "api_keys.account_id")
        .select(["api_keys.hash", "accounts.id", "accounts.user_id", "accounts.credential_type", "accounts.client_id"])
        .where("api_keys.prefix", "=", keyPrefix(credential))
        .where("api_keys.revoked_at", "is", null)
        .execute();
      const row = rows.find((r) => keyMatches(credential, r.hash));
      if (!row) return null;
      const account: Account = {
        id: row.id,
        userId: row.user_id,
        credentialType: row.credential_type,
        clientId: row.client_id,
      };
      return account;
    },
    async balance(accountId) {
      const row = await db.selectFrom("accounts").select("balance").where("id", "=", accountId).executeTakeFirst();
      return Number(row?.balance ?? 0);
    },
    async hold(accountId, credits, meta): Promise<Hold | null> {
      const row = await db
        .updateTable("accounts")
        .set({ balance: sql`balance - ${credits}` })
        .where("id", "=", accountId)
        .where("balance", ">=", credits)
        .returning("balance")
        .executeTakeFirst();
      return row ? { accountId, credits, ...meta } : null;
    },
    async settle(hold) {
      if (hold.credits === 0) return;
      const balance = await this.balance(hold.accountId);
      await db
        .insertInto("ledger")
        .values({
          account_id: hold.accountId,
          operation_id: hold.operationId,
          request_id: hold.requestId,
          credits: hold.credits,
          balance_after: balance,
          at: iso(),
        })
        .execute();
    },
    async release(hold) {
      await db
        .updateTable("accounts")
        .set({ balance: sql`balance + ${hold.credits}` })
        .where("id", "=", hold.accountId)
        .execute();
    },
    async refund(accountId, requestId) {
      // one transaction: the charge is read, given back and recorded together (idempotent on the refund row)
      return await db.transaction().execute(async (tx) => {
        const rows = await tx
          .selectFrom("ledger")
          .select(["operation_id", "credits"])
          .where("account_id", "=", accountId)
          .where("request_id", "=", requestId)
          .execute();
        if (rows.some((r) => r.operation_id === "refund")) return 0;
        const credits = rows.reduce((sum, r) => sum + Number(r.credits), 0);
        if (credits <= 0) return 0;
        const row = await tx
          .updateTable("accounts")
          .set({ balance: sql`balance + ${credits}` })
          .where("id", "=", accountId)
          .returning("balance")
          .executeTakeFirstOrThrow();
        await tx
          .insertInto("ledger")
          .values({
            account_id: accountId,
            operation_id: "refund",
            request_id: requestId,
            credits: -credits,
            balance_after: Number(row.balance),
            at: iso(),
          })
          .execute();
        return credits;
      });
    },
    async createAccount({ credits, key, credentialType }) {
      const accountId = id("acct");
      const k = key ?? newApiKey();
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto("accounts")
          .values({
            id: accountId,
            user_id: id("usr"),
            credential_type: credentialType ?? "api_key",
            client_id: null,
            balance: credits,
            created_at: iso(),
          })
          .execute();
        await tx
          .insertInto("api_keys")
          .values({
            id: id("key"),
            account_id: accountId,
            prefix: keyPrefix(k),
            hash: hashKey(k),
            created_at: iso(),
            revoked_at: null,
          })
          .execute();
      });
      return { accountId, key: k };
    },
    async listKeys() {
      const rows = await db
        .selectFrom("api_keys")
        .innerJoin("accounts", "accounts.id", "api_keys.account_id")
        .select([
          "api_keys.prefix",
          "api_keys.account_id",
          "accounts.balance",
          "accounts.credential_type",
          "api_keys.created_at",
          "api_keys.revoked_at",
        ])
        .orderBy("api_keys.created_at")
        .execute();
      return rows.map((r) => ({
        prefix: r.prefix,
        accountId: r.account_id,
        balance: Number(r.balance),
        credentialType: r.credential_type,
        createdAt: r.created_at,
        revokedAt: r.revoked_at,
      }));
    },
    async rotateKey(prefixOrKey) {
      const row = await keyRow(prefixOrKey);
      if (!row) return null;
      const key = newApiKey();
      await db.updateTable("api_keys").set({ revoked_at: iso() }).where("id", "=", row.id).execute();
      await addKey(row.account_id, key);
      return { key };
    },
    async revokeKey(prefixOrKey) {
      const row = await keyRow(prefixOrKey);
      if (!row) return false;
      await db.updateTable("api_keys").set({ revoked_at: iso() }).where("id", "=", row.id).execute();
      return true;
    },
    async credit(prefixOrKey, credits) {
      const row = await keyRow(prefixOrKey);
      if (!row) return null;
      await db
        .updateTable("accounts")
        .set({ balance: sql`balance + ${credits}` })
        .where("id", "=", row.account_id)
        .execute();
      const balance = await this.balance(row.account_id);
      await db
        .insertInto("ledger")
        .values({
          account_id: row.account_id,
          operation_id: "credit",
          request_id: id("admin"),
          credits: -credits,
          balance_after: balance,
          at: iso(),
        })
        .execute();
      return { balance };
    },
    async ledger(accountId) {
      const rows = await db
        .selectFrom("ledger")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("id")
        .execute();
      return rows.map((r) => ({
        operationId: r.operation_id,
        credits: Number(r.credits),
        balanceAfter: Number(r.balance_after),
        at: r.at,
      }));
    },
  };
}
