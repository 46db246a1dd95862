// Users of the account pages (issue 15 "Account pages"): a login and an argon2id password hash, each user owning one
// account of the platform (its balance, ledger and API keys), and browser sessions stored by the hash of their
// cookie. Signing up creates the account with the configured starting credits.
import { createHash, randomBytes } from "node:crypto";
import argon2 from "argon2";
import type { Kysely } from "kysely";
import { hashKey, keyPrefix, newApiKey } from "../store/api-keys.ts";
import type { AuthDatabase } from "./auth-schema.ts";

export interface User {
  id: string;
  login: string;
  accountId: string;
}

export type SignUpResult = { ok: true; user: User } | { ok: false; problem: string };

/** What a login may look like: short, printable, no spaces (an e-mail address is fine, and not required). */
export const LOGIN_PATTERN = /^[A-Za-z0-9._@+-]{3,64}$/;
export const MIN_PASSWORD = 10;
const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

const newId = (kind: string) => `${kind}_${randomBytes(8).toString("hex")}`;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export interface UserStore {
  signUp(login: string, password: string): Promise<SignUpResult>;
  /** the user when the password matches; argon2 verification runs even for an unknown login (no timing oracle) */
  verify(login: string, password: string): Promise<User | null>;
  byId(id: string): Promise<User | null>;
  startSession(userId: string): Promise<{ cookie: string; maxAgeSeconds: number }>;
  sessionUser(cookie: string | undefined): Promise<User | null>;
  endSession(cookie: string | undefined): Promise<void>;
  balance(accountId: string): Promise<number>;
  recentUsage(accountId: string, limit: number): Promise<Array<{ operationId: string; credits: number; at: string }>>;
  keys(accountId: string): Promise<Array<{ prefix: string; createdAt: string; revokedAt: string | null }>>;
  /** a new API key for the account, returned once */
  createKey(accountId: string): Promise<string>;
  /** revokes the account's key with this prefix; false when it is not the account's or already revoked */
  revokeKey(accountId: string, prefix: string): Promise<boolean>;
  rotateKey(accountId: string, prefix: string): Promise<string | null>;
}

export function createUserStore(
  db: Kysely<AuthDatabase>,
  o: { startingCredits: number; now?: () => number },
): UserStore {
  const now = o.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  // a fixed hash to verify against when the login is unknown, so both paths cost one argon2 verification
  const decoy = argon2.hash(randomBytes(16).toString("hex"));
  const toUser = (r: { id: string; login: string; account_id: string }): User => ({
    id: r.id,
    login: r.login,
    accountId: r.account_id,
  });

  const store: UserStore = {
    async signUp(login, password) {
      if (!LOGIN_PATTERN.test(login))
        return { ok: false, problem: "The username takes 3 to 64 letters, digits or . _ @ + -" };
      if (password.length < MIN_PASSWORD || password.length > 256)
        return { ok: false, problem: `The password takes ${MIN_PASSWORD} to 256 characters` };
      const taken = await db.selectFrom("users").select("id").where("login", "=", login).executeTakeFirst();
      if (taken) return { ok: false, problem: "That username is taken" };
      const passwordHash = await argon2.hash(password, { type: argon2.argon2id });
      const user = { id: newId("usr"), login, accountId: newId("acct") };
      try {
        await db.transaction().execute(async (tx) => {
          await tx
            .insertInto("accounts")
            .values({
              id: user.accountId,
              user_id: user.id,
              credential_type: "api_key",
              client_id: null,
              balance: o.startingCredits,
              created_at: iso(),
            })
            .execute();
          await tx
            .insertInto("users")
            .values({
              id: user.id,
              login,
              password_hash: passwordHash,
              account_id: user.accountId,
              created_at: iso(),
            })
            .execute();
        });
      } catch {
        // the unique login lost a race with another sign-up
        return { ok: false, problem: "That username is taken" };
      }
      return { ok: true, user };
    },
    async verify(login, password) {
      const row = await db.selectFrom("users").selectAll().where("login", "=", login).executeTakeFirst();
      const hash = row?.password_hash ?? (await decoy);
      const matches = await argon2.verify(hash, password).catch(() => false);
      return row && matches ? toUser(row) : null;
    },
    async byId(id) {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async startSession(userId) {
      const cookie = randomBytes(32).toString("base64url");
      await db
        .insertInto("account_sessions")
        .values({ id_hash: sha256(cookie), user_id: userId, expires_at: now() + SESSION_TTL_MS })
        .execute();
      await db.deleteFrom("account_sessions").where("expires_at", "<", now()).execute();
      return { cookie, maxAgeSeconds: SESSION_TTL_MS / 1000 };
    },
    async sessionUser(cookie) {
      if (!cookie) return null;
      const row = await db
        .selectFrom("account_sessions")
        .innerJoin("users", "users.id", "account_sessions.user_id")
        .select(["users.id", "users.login", "users.account_id", "account_sessions.expires_at"])
        .where("account_sessions.id_hash", "=", sha256(cookie))
        .executeTakeFirst();
      return row && Number(row.expires_at) > now() ? toUser(row) : null;
    },
    async endSession(cookie) {
      if (cookie) await db.deleteFrom("account_sessions").where("id_hash", "=", sha256(cookie)).execute();
    },
    async balance(accountId) {
      const row = await db.selectFrom("accounts").select("balance").where("id", "=", accountId).executeTakeFirst();
      return Number(row?.balance ?? 0);
    },
    async recentUsage(accountId, limit) {
      const rows = await db
        .selectFrom("ledger")
        .select(["operation_id", "credits", "at"])
        .where("account_id", "=", accountId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ operationId: r.operation_id, credits: Number(r.credits), at: r.at }));
    },
    async keys(accountId) {
      const rows = await db
        .selectFrom("api_keys")
        .select(["prefix", "created_at", "revoked_at"])
        .where("account_id", "=", accountId)
        .orderBy("created_at", "desc")
        .execute();
      return rows.map((r) => ({ prefix: r.prefix, createdAt: r.created_at, revokedAt: r.revoked_at }));
    },
    async createKey(accountId) {
      const key = newApiKey();
      await db
        .insertInto("api_keys")
        .values({
          id: newId("key"),
          account_id: accountId,
          prefix: keyPrefix(key),
          hash: hashKey(key),
          created_at: iso(),
          revoked_at: null,
        })
        .execute();
      return key;
    },
    async revokeKey(accountId, prefix) {
      const r = await db
        .updateTable("api_keys")
        .set({ revoked_at: iso() })
        .where("account_id", "=", accountId)
        .where("prefix", "=", prefix)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async rotateKey(accountId, prefix) {
      if (!(await store.revokeKey(accountId, prefix))) return null;
      return store.createKey(accountId);
    },
  };
  return store;
}
