// Accounts, keys and the credit ledger in SQL, behind the platform's AccountStore (issue 5 "Platform"):
// a hold is one conditional UPDATE, so concurrent calls never overdraw or double-charge, on SQLite and PostgreSQL.
// Holds are durable (issue 38): the debit and the hold's row are written in one transaction, and settling (the
// hold's row out, the ledger's row in) or releasing (the hold's row out, the credits back) is one transaction too,
// so at every moment balance = credits granted - ledger - open holds. Each running server is an instance with a
// lease it renews (the deepcrawl workers' idea, per process): the holds of an instance whose lease ran out (killed,
// crashed) are released by whichever instance looks next, at start and every third of a lease, never those of a
// live one. On PostgreSQL each step is one statement (a data-modifying CTE: one round trip, as before).
import { randomBytes } from "node:crypto";
import type { Account, AccountStore, Hold } from "@plumbline-kit/platform/stores";
import { type Kysely, sql } from "kysely";
import { hashKey, keyMatches, keyPrefix, newApiKey } from "./api-keys.ts";
import type { Database, Dialect } from "./schema.ts";

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
  /** The holds not yet settled or released, of every instance (oldest first). */
  openHolds(accountId?: string): Promise<OpenHold[]>;
  /**
   * Makes this store a live instance on the database (a row with a lease renewed every third of `leaseMs`) and
   * releases the holds of dead instances now and at every renewal. Holds taken before it belong to no live instance.
   */
  startInstance(o: { leaseMs: number; onError?: (err: unknown) => void }): Promise<LedgerInstance>;
  /** Releases the holds of instances whose lease ran out before `nowMs` (or that have no row); idempotent. */
  recoverHolds(nowMs?: number): Promise<Recovered>;
}

export interface OpenHold {
  id: string;
  accountId: string;
  credits: number;
  operationId: string;
  requestId: string;
  instanceId: string;
  createdAt: string;
}

export interface Recovered {
  holds: number;
  credits: number;
}

export interface LedgerInstance {
  id: string;
  /** what the start released of dead instances' holds */
  recovered: Recovered;
  /** stops renewing, releases this instance's open holds and removes its row (a clean shutdown) */
  close(): Promise<void>;
}

/** settle() of a hold that recovery released: this process was taken for dead, and the call is not charged. */
export class HoldReleased extends Error {
  constructor(hold: Hold) {
    super(
      `The hold ${hold.id} (${hold.credits} credits, request ${hold.requestId}) was released as a dead instance's: the call is not charged`,
    );
    this.name = "HoldReleased";
  }
}

const id = (kind: string) => `${kind}_${randomBytes(8).toString("hex")}`;

export interface SqlAccountsOptions {
  /** PostgreSQL: each ledger step in one statement; SQLite (default): in one transaction */
  dialect?: Dialect;
  now?: () => number;
}

export function createSqlAccounts(db: Kysely<Database>, o: SqlAccountsOptions = {}): SqlAccounts {
  const now = o.now ?? Date.now;
  const postgres = o.dialect === "postgres";
  const iso = () => new Date(now()).toISOString();
  // this process's name on the database; its holds are live while its instance row's lease is
  const instanceId = id("inst");
  /** the holds this store took and has not settled or released yet */
  const mine = new Map<string, Hold>();

  /** Takes `credits` off the balance and writes the hold, in one transaction; false when the balance is short. */
  async function debitAndHold(h: Required<Hold>): Promise<boolean> {
    const at = iso();
    if (postgres) {
      const r = await sql<{ id: string }>`
        with debit as (
          update accounts set balance = balance - ${h.credits} where id = ${h.accountId} and balance >= ${h.credits}
          returning id
        )
        insert into holds (id, account_id, credits, operation_id, request_id, instance_id, created_at)
        select ${h.id}, debit.id, cast(${h.credits} as integer), ${h.operationId}, ${h.requestId}, ${instanceId}, ${at}
        from debit returning id`.execute(db);
      return r.rows.length === 1;
    }
    return db.transaction().execute(async (tx) => {
      const r = await tx
        .updateTable("accounts")
        .set({ balance: sql`balance - ${h.credits}` })
        .where("id", "=", h.accountId)
        .where("balance", ">=", h.credits)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await tx
        .insertInto("holds")
        .values({
          id: h.id,
          account_id: h.accountId,
          credits: h.credits,
          operation_id: h.operationId,
          request_id: h.requestId,
          instance_id: instanceId,
          created_at: at,
        })
        .execute();
      return true;
    });
  }

  /** The hold's row out and its ledger row in, in one transaction; false when the hold was not open. */
  async function settleHold(holdId: string): Promise<boolean> {
    const at = iso();
    if (postgres) {
      const r = await sql<{ id: number }>`
        with gone as (
          delete from holds where id = ${holdId} returning account_id, credits, operation_id, request_id
        )
        insert into ledger (account_id, operation_id, request_id, credits, balance_after, at)
        select gone.account_id, gone.operation_id, gone.request_id, gone.credits, accounts.balance, ${at}
        from gone join accounts on accounts.id = gone.account_id returning id`.execute(db);
      return r.rows.length === 1;
    }
    return db.transaction().execute(async (tx) => {
      const gone = await tx.deleteFrom("holds").where("id", "=", holdId).returningAll().executeTakeFirst();
      if (!gone) return false;
      const account = await tx
        .selectFrom("accounts")
        .select("balance")
        .where("id", "=", gone.account_id)
        .executeTakeFirstOrThrow();
      await tx
        .insertInto("ledger")
        .values({
          account_id: gone.account_id,
          operation_id: gone.operation_id,
          request_id: gone.request_id,
          credits: gone.credits,
          balance_after: account.balance,
          at,
        })
        .execute();
      return true;
    });
  }

  /**
   * The hold's row out and its credits back, in one transaction; the credits released (null: the hold was not
   * open). With `deadBefore`, only while its instance has no lease running past that time (recovery).
   */
  async function releaseHold(holdId: string, deadBefore?: number): Promise<number | null> {
    const alive =
      deadBefore === undefined
        ? sql``
        : sql`and not exists (select 1 from instances where instances.id = holds.instance_id and instances.lease_until >= ${deadBefore})`;
    if (postgres) {
      const r = await sql<{ credits: number }>`
        with gone as (delete from holds where id = ${holdId} ${alive} returning account_id, credits)
        update accounts set balance = accounts.balance + gone.credits from gone
        where accounts.id = gone.account_id returning gone.credits`.execute(db);
      return r.rows.length ? Number(r.rows[0].credits) : null;
    }
    return db.transaction().execute(async (tx) => {
      const r = await sql<{ account_id: string; credits: number }>`
        delete from holds where id = ${holdId} ${alive} returning account_id, credits`.execute(tx);
      const gone = r.rows[0];
      if (!gone) return null;
      await tx
        .updateTable("accounts")
        .set({ balance: sql`balance + ${gone.credits}` })
        .where("id", "=", gone.account_id)
        .execute();
      return Number(gone.credits);
    });
  }

  async function recoverHolds(nowMs = now()): Promise<Recovered> {
    const recovered: Recovered = { holds: 0, credits: 0 };
    for (;;) {
      const dead = await db
        .selectFrom("holds")
        .leftJoin("instances", "instances.id", "holds.instance_id")
        .select("holds.id")
        .where((w) => w.or([w("instances.id", "is", null), w("instances.lease_until", "<", nowMs)]))
        .orderBy("holds.created_at")
        .limit(500)
        .execute();
      for (const h of dead) {
        const credits = await releaseHold(h.id, nowMs);
        if (credits === null) continue; // another instance released it first, or its instance renewed
        recovered.holds += 1;
        recovered.credits += credits;
      }
      if (dead.length < 500) break;
    }
    // the rows of dead instances that own nothing any more
    await db
      .deleteFrom("instances")
      .where("lease_until", "<", nowMs)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("holds").select("holds.id").whereRef("holds.instance_id", "=", "instances.id"))),
      )
      .execute();
    return recovered;
  }

  async function renew(leaseMs: number) {
    const until = now() + leaseMs;
    const r = await db
      .updateTable("instances")
      .set({ lease_until: until })
      .where("id", "=", instanceId)
      .executeTakeFirst();
    // gone: another instance took this one for dead (a stall longer than the lease) and its holds were released;
    // it is alive again from now on
    if (Number(r.numUpdatedRows) === 0)
      await db
        .insertInto("instances")
        .values({ id: instanceId, started_at: iso(), lease_until: until })
        .onConflict((oc) => oc.column("id").doUpdateSet({ lease_until: until }))
        .execute();
  }

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
      if (credits === 0) {
        // a free call reserves nothing: only whether the account exists
        const row = await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
        return row ? { accountId, credits, operationId: meta.operationId, requestId: meta.requestId } : null;
      }
      const hold = {
        accountId,
        credits,
        operationId: meta.operationId,
        requestId: meta.requestId,
        id: id("hold"),
      };
      if (!(await debitAndHold(hold))) return null;
      mine.set(hold.id, hold);
      return hold;
    },
    async settle(hold) {
      if (hold.credits === 0) return;
      if (!hold.id) throw new Error("settle(): not a hold of this store");
      const ours = mine.delete(hold.id);
      // settled or released already (here, or by another instance of the store): nothing changes
      if (!(await settleHold(hold.id)) && ours) throw new HoldReleased(hold);
    },
    async release(hold) {
      if (hold.credits === 0) return;
      if (!hold.id) throw new Error("release(): not a hold of this store");
      mine.delete(hold.id);
      await releaseHold(hold.id);
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
    async openHolds(accountId) {
      let q = db.selectFrom("holds").selectAll().orderBy("created_at").orderBy("id");
      if (accountId !== undefined) q = q.where("account_id", "=", accountId);
      const rows = await q.execute();
      return rows.map((r) => ({
        id: r.id,
        accountId: r.account_id,
        credits: Number(r.credits),
        operationId: r.operation_id,
        requestId: r.request_id,
        instanceId: r.instance_id,
        createdAt: r.created_at,
      }));
    },
    async startInstance({ leaseMs, onError = (err) => console.error("ledger: renewing the instance failed", err) }) {
      await renew(leaseMs);
      const recovered = await recoverHolds();
      let beat: Promise<unknown> = Promise.resolve();
      const timer = setInterval(
        () => {
          beat = renew(leaseMs)
            .then(() => recoverHolds())
            .catch(onError);
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      timer.unref();
      return {
        id: instanceId,
        recovered,
        async close() {
          clearInterval(timer);
          await beat;
          // a clean shutdown: whatever is still held here was never answered as charged
          for (const hold of [...mine.values()]) {
            mine.delete(hold.id as string);
            await releaseHold(hold.id as string);
          }
          await db.deleteFrom("instances").where("id", "=", instanceId).execute();
        },
      };
    },
    recoverHolds,
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
      // the credit and its ledger row together: a crash between them would leave a balance the ledger cannot explain
      const balance = await db.transaction().execute(async (tx) => {
        await tx
          .updateTable("accounts")
          .set({ balance: sql`balance + ${credits}` })
          .where("id", "=", row.account_id)
          .execute();
        const after = await tx
          .selectFrom("accounts")
          .select("balance")
          .where("id", "=", row.account_id)
          .executeTakeFirstOrThrow();
        await tx
          .insertInto("ledger")
          .values({
            account_id: row.account_id,
            operation_id: "credit",
            request_id: id("admin"),
            credits: -credits,
            balance_after: Number(after.balance),
            at: iso(),
          })
          .execute();
        return Number(after.balance);
      });
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
