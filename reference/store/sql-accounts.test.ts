// The SQL account store on both databases (issue 5): hashed keys, constant-time lookups, atomic holds that never
// overdraw under concurrency, an append-only ledger. PostgreSQL runs when PLUMBLINE_TEST_DATABASE_URL is set
// (.ci/run starts one and sets PLUMBLINE_REQUIRE_POSTGRES=1, so CI cannot silently skip it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresSchema } from "../../test-support/postgres-schema.ts";
import { hashKey } from "./api-keys.ts";
import { type OpenedDatabase, openDatabase } from "./open-database.ts";
import { createSqlAccounts, type SqlAccounts } from "./sql-accounts.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;

describe("PostgreSQL for the store tests", () => {
  it("is configured wherever it is required", () => {
    if (process.env.PLUMBLINE_REQUIRE_POSTGRES === "1") expect(PG, "PLUMBLINE_TEST_DATABASE_URL").toMatch(/^postgres/);
  });
});

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`SQL accounts on ${kind}`, () => {
    let opened: OpenedDatabase;
    let store: SqlAccounts;
    let dir = "";
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "plumbline-store-"));
      // a clean slate of its own: other files use the same test database at the same time (their tables refer
      // to accounts), so this file's tables live in a schema of their own
      opened = await openDatabase(
        kind === "postgres"
          ? { databaseUrl: await freshPostgresSchema(PG as string, "store_accounts") }
          : { dataDir: dir },
      );
      store = createSqlAccounts(opened.db);
    });
    afterAll(async () => {
      await opened?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("stores keys hashed with a readable prefix, and authenticates only the exact key", async () => {
      const { accountId, key } = await store.createAccount({ credits: 10 });
      expect(key).toMatch(/^plb_[0-9a-f]{8}_[0-9a-f]{40}$/);
      const rows = await opened.db.selectFrom("api_keys").selectAll().where("account_id", "=", accountId).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].hash).toBe(hashKey(key));
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(await store.authenticate(key)).toMatchObject({ id: accountId, credentialType: "api_key" });
      expect(await store.authenticate(`${key}x`)).toBeNull();
      expect(await store.authenticate(key.slice(0, 12))).toBeNull();
      expect(await store.authenticate("")).toBeNull();
    });

    it("rotates and revokes keys; a revoked key is refused", async () => {
      const { key, accountId } = await store.createAccount({ credits: 5 });
      const fresh = (await store.rotateKey(key))?.key ?? "";
      expect(fresh).toMatch(/^plb_/);
      expect(await store.authenticate(key)).toBeNull();
      expect(await store.authenticate(fresh)).toMatchObject({ id: accountId });
      expect(await store.revokeKey(fresh.slice(0, 12))).toBe(true);
      expect(await store.authenticate(fresh)).toBeNull();
      expect(await store.revokeKey("plb_nothing_")).toBe(false);
    });

    it("holds, settles and releases credits, writing the ledger on settle only", async () => {
      const { key, accountId } = await store.createAccount({ credits: 12 });
      const hold = await store.hold(accountId, 10, { operationId: "extract", requestId: "r1" });
      expect(hold).not.toBeNull();
      expect(await store.balance(accountId)).toBe(2);
      expect(await store.hold(accountId, 3, { operationId: "crawl", requestId: "r2" })).toBeNull();
      await store.settle(hold as NonNullable<typeof hold>);
      const failed = await store.hold(accountId, 1, { operationId: "crawl", requestId: "r3" });
      await store.release(failed as NonNullable<typeof failed>);
      expect(await store.balance(accountId)).toBe(2);
      expect(await store.ledger(accountId)).toEqual([
        { operationId: "extract", credits: 10, balanceAfter: 2, at: expect.any(String) },
      ]);
      expect(await store.credit(key, 8)).toEqual({ balance: 10 });
      expect((await store.ledger(accountId)).at(-1)).toMatchObject({
        operationId: "credit",
        credits: -8,
        balanceAfter: 10,
      });
    });

    it("never overdraws under concurrent holds", async () => {
      const { accountId } = await store.createAccount({ credits: 20 });
      const holds = await Promise.all(
        Array.from({ length: 60 }, (_, i) => store.hold(accountId, 1, { operationId: "search", requestId: `c${i}` })),
      );
      expect(holds.filter(Boolean)).toHaveLength(20);
      expect(await store.balance(accountId)).toBe(0);
    });

    it("accepts chosen keys for seeding (--key KEY:CREDITS) and lists keys without secrets", async () => {
      await store.createAccount({ credits: 3, key: "seeded-test-key", credentialType: "oauth" });
      expect(await store.authenticate("seeded-test-key")).toMatchObject({ credentialType: "oauth" });
      const listed = await store.listKeys();
      expect(listed.find((k) => k.prefix === "seeded-test-")).toMatchObject({ balance: 3, revokedAt: null });
      expect(JSON.stringify(listed)).not.toContain("seeded-test-key");
    });
  });
}
