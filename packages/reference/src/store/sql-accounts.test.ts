// The SQL account store on both databases (issue 5): hashed keys, constant-time lookups, atomic holds that never
// overdraw under concurrency, an append-only ledger. PostgreSQL runs when PLUMBLINE_TEST_DATABASE_URL is set
// (.ci/run starts one and sets PLUMBLINE_REQUIRE_POSTGRES=1, so CI cannot silently skip it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { hashKey } from "./api-keys.ts";
import { type OpenedDatabase, openDatabase, openSqlite } from "./open-database.ts";
import { createSqlAccounts, HoldReleased, type LedgerInstance, type SqlAccounts } from "./sql-accounts.ts";

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
    let instance: LedgerInstance;
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
      store = createSqlAccounts(opened.db, { dialect: opened.dialect });
      instance = await store.startInstance({ leaseMs: 600_000 });
    });
    afterAll(async () => {
      await instance?.close();
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

    /** balance = credits granted - ledger - open holds (issue 38), for one account */
    async function explained(accountId: string, granted: number) {
      const charged = (await store.ledger(accountId)).reduce((n, e) => n + e.credits, 0);
      const held = (await store.openHolds(accountId)).reduce((n, h) => n + h.credits, 0);
      return { balance: await store.balance(accountId), expected: granted - charged - held };
    }

    it("writes each hold with its debit, and settles or releases it once however often asked", async () => {
      const { accountId } = await store.createAccount({ credits: 30 });
      const a = await store.hold(accountId, 10, { operationId: "extract", requestId: "req-a" });
      const b = await store.hold(accountId, 5, { operationId: "crawl", requestId: "req-b" });
      if (!a || !b) throw new Error("both holds fit the balance");
      // (two holds of the same millisecond list in any order: compared by request)
      const open = (await store.openHolds(accountId)).sort((x, y) => x.requestId.localeCompare(y.requestId));
      expect(open).toEqual([
        expect.objectContaining({ accountId, credits: 10, operationId: "extract", requestId: "req-a" }),
        expect.objectContaining({ accountId, credits: 5, operationId: "crawl", requestId: "req-b" }),
      ]);
      expect(open.map((h) => h.instanceId)).toEqual([instance.id, instance.id]);
      expect(await explained(accountId, 30)).toEqual({ balance: 15, expected: 15 });
      await store.settle(a);
      await store.settle(a);
      await store.release(b);
      await store.release(b);
      await store.settle(b); // released already: not charged after all
      expect(await store.openHolds(accountId)).toEqual([]);
      expect(await store.balance(accountId)).toBe(20);
      expect(await store.ledger(accountId)).toEqual([expect.objectContaining({ operationId: "extract", credits: 10 })]);
      // a second store on the same database (another instance) settling the same hold changes nothing either
      await createSqlAccounts(opened.db, { dialect: opened.dialect }).settle(a);
      expect(await explained(accountId, 30)).toEqual({ balance: 20, expected: 20 });
    });

    it("keeps the balance explained under concurrent holds, settles and releases", async () => {
      const { accountId } = await store.createAccount({ credits: 100 });
      const holds = await Promise.all(
        Array.from({ length: 40 }, (_, i) => store.hold(accountId, 3, { operationId: "search", requestId: `m${i}` })),
      );
      const taken = holds.filter((h) => h !== null);
      expect(taken).toHaveLength(33);
      await Promise.all(taken.map((h, i) => (i % 3 === 0 ? store.release(h) : store.settle(h))));
      const { balance, expected } = await explained(accountId, 100);
      expect(balance).toBe(expected);
      expect(balance).toBe(100 - 3 * taken.filter((_, i) => i % 3 !== 0).length);
    });

    it("releases the holds of a dead instance only, at another's start or later look; the dead one cannot settle them", async () => {
      const { accountId } = await store.createAccount({ credits: 50 });
      let deadNow = 1_000;
      let liveNow = 50_000;
      const dead = createSqlAccounts(opened.db, { dialect: opened.dialect, now: () => deadNow });
      const live = createSqlAccounts(opened.db, { dialect: opened.dialect, now: () => liveNow });
      const deadInstance = await dead.startInstance({ leaseMs: 60_000 }); // its lease runs to 61,000
      const liveInstance = await live.startInstance({ leaseMs: 60_000 }); // to 110,000
      expect(deadInstance.id).not.toBe(liveInstance.id);
      const lost = await dead.hold(accountId, 7, { operationId: "crawl", requestId: "dead-1" });
      const lost2 = await dead.hold(accountId, 4, { operationId: "search", requestId: "dead-2" });
      const kept = await live.hold(accountId, 9, { operationId: "crawl", requestId: "live-1" });
      if (!lost || !lost2 || !kept) throw new Error("the holds fit the balance");
      expect(await store.balance(accountId)).toBe(30);

      // within the dead one's lease nothing is released
      expect(await live.recoverHolds()).toEqual({ holds: 0, credits: 0 });
      // its lease ran out (it stopped renewing: killed): restarted, it is a new instance, and the start releases
      // the old one's holds, and only those
      liveNow = 100_000;
      const restarted = createSqlAccounts(opened.db, { dialect: opened.dialect, now: () => liveNow });
      const again = await restarted.startInstance({ leaseMs: 60_000 });
      expect(again.id).not.toBe(deadInstance.id);
      expect(again.recovered).toEqual({ holds: 2, credits: 11 });
      expect(await live.recoverHolds()).toEqual({ holds: 0, credits: 0 });
      expect(await store.openHolds(accountId)).toEqual([expect.objectContaining({ requestId: "live-1" })]);
      expect(await explained(accountId, 50)).toEqual({ balance: 41, expected: 41 });
      await live.settle(kept);
      expect(await store.ledger(accountId)).toEqual([expect.objectContaining({ operationId: "crawl", credits: 9 })]);

      // the dead instance was only stalled: what it settles now is refused, not charged, and changes nothing
      await expect(dead.settle(lost)).rejects.toBeInstanceOf(HoldReleased);
      await dead.release(lost2);
      expect(await explained(accountId, 50)).toEqual({ balance: 41, expected: 41 });
      expect(await store.ledger(accountId)).toHaveLength(1);
      deadNow = liveNow;
      for (const i of [deadInstance, liveInstance, again]) await i.close();
    });

    it("never releases the holds of a live instance, and a clean close gives its own back", async () => {
      const { accountId } = await store.createAccount({ credits: 20 });
      const t = 5_000;
      const a = createSqlAccounts(opened.db, { dialect: opened.dialect, now: () => t });
      const aInstance = await a.startInstance({ leaseMs: 60_000 });
      const held = await a.hold(accountId, 6, { operationId: "crawl", requestId: "a-1" });
      expect(held).not.toBeNull();
      // another instance starting (or restarting) while this one lives leaves its hold alone
      const b = createSqlAccounts(opened.db, { dialect: opened.dialect, now: () => t + 30_000 });
      const bInstance = await b.startInstance({ leaseMs: 60_000 });
      expect(await b.recoverHolds()).toEqual({ holds: 0, credits: 0 });
      expect(await store.openHolds(accountId)).toHaveLength(1);
      await bInstance.close();
      expect(await store.balance(accountId)).toBe(14);
      await aInstance.close();
      expect(await store.openHolds(accountId)).toEqual([]);
      expect(await store.balance(accountId)).toBe(20);
      const rows = await opened.db.selectFrom("instances").select("id").execute();
      expect(rows.map((r) => r.id)).not.toContain(aInstance.id);
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

describe("a data directory of the previous version", () => {
  it("is upgraded by migrate(): its accounts keep their balance and holds work", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-store-old-"));
    try {
      const first = await openDatabase({ dataDir: dir });
      const { key, accountId } = await createSqlAccounts(first.db).createAccount({ credits: 9 });
      await first.close();
      // what the previous version left: no holds or instances tables
      const raw = openSqlite(join(dir, "plumbline.db"));
      raw.exec("drop table holds; drop table instances;");
      raw.close();
      const upgraded = await openDatabase({ dataDir: dir });
      const accounts = createSqlAccounts(upgraded.db);
      expect(await accounts.authenticate(key)).toMatchObject({ id: accountId });
      const hold = await accounts.hold(accountId, 4, { operationId: "crawl", requestId: "old-1" });
      await accounts.settle(hold as NonNullable<typeof hold>);
      expect(await accounts.balance(accountId)).toBe(5);
      expect(await accounts.openHolds()).toEqual([]);
      await upgraded.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
