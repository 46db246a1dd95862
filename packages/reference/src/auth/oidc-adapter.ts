// oidc-provider's storage adapter over the reference's database (issue 15: "Clients, grants and tokens persist in
// the reference's database, so a restart logs nobody out"). The interface is oidc-provider's Adapter: upsert, find,
// findByUid, findByUserCode, consume, destroy, revokeByGrantId. Every model lives in one table keyed by model and id.
import type { Kysely } from "kysely";
import type { AuthDatabase } from "./auth-schema.ts";

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

/** Expired rows are deleted at most this often (lazily, on writes), so the table stays bounded. */
const SWEEP_EVERY_MS = 60_000;

export interface OidcAdapter {
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export function createOidcAdapterClass(
  db: Kysely<AuthDatabase>,
  now: () => number = Date.now,
): new (
  model: string,
) => OidcAdapter {
  let lastSweep = 0;
  const sweep = async () => {
    const t = now();
    if (t - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = t;
    await db.deleteFrom("oidc_payloads").where("expires_at", "<", t).execute();
  };
  const live = (row: { payload: string; expires_at: number | string | null } | undefined): Payload | undefined => {
    if (!row) return undefined;
    if (row.expires_at !== null && Number(row.expires_at) <= now()) return undefined;
    return JSON.parse(row.payload) as Payload;
  };

  return class SqlOidcAdapter implements OidcAdapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Payload, expiresIn?: number) {
      const row = {
        key: this.key(id),
        model: this.model,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? now() + expiresIn * 1000 : null,
      };
      const { key: _key, ...update } = row;
      await db
        .insertInto("oidc_payloads")
        .values(row)
        .onConflict((oc) => oc.column("key").doUpdateSet(update))
        .execute();
      await sweep();
    }
    async find(id: string) {
      return live(
        await db
          .selectFrom("oidc_payloads")
          .select(["payload", "expires_at"])
          .where("key", "=", this.key(id))
          .executeTakeFirst(),
      );
    }
    async findByUid(uid: string) {
      return live(
        await db
          .selectFrom("oidc_payloads")
          .select(["payload", "expires_at"])
          .where("model", "=", this.model)
          .where("uid", "=", uid)
          .executeTakeFirst(),
      );
    }
    async findByUserCode(userCode: string) {
      return live(
        await db
          .selectFrom("oidc_payloads")
          .select(["payload", "expires_at"])
          .where("model", "=", this.model)
          .where("user_code", "=", userCode)
          .executeTakeFirst(),
      );
    }
    async consume(id: string) {
      // read-modify-write: oidc-provider consumes a code or refresh token once, in the request that redeems it
      const found = await this.find(id);
      if (!found) return;
      found.consumed = Math.floor(now() / 1000);
      await db
        .updateTable("oidc_payloads")
        .set({ payload: JSON.stringify(found) })
        .where("key", "=", this.key(id))
        .execute();
    }
    async destroy(id: string) {
      await db.deleteFrom("oidc_payloads").where("key", "=", this.key(id)).execute();
    }
    async revokeByGrantId(grantId: string) {
      // every code and token of the grant goes at once, whatever its model: revocation takes effect immediately
      await db.deleteFrom("oidc_payloads").where("grant_id", "=", grantId).execute();
    }
  };
}
