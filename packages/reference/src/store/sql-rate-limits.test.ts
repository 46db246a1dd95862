// The shared rate-limit windows on both databases: counts per key and window, a new window restarts the count,
// concurrent hits are all counted (none lost to a race), and two instances over one database share the count.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenedDatabase, openDatabase } from "./open-database.ts";
import { createSqlRateLimitStore } from "./sql-rate-limits.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`SQL rate-limit windows on ${kind}`, () => {
    let a: OpenedDatabase;
    let b: OpenedDatabase;
    let dir = "";
    const open = () => openDatabase(kind === "postgres" ? { databaseUrl: PG } : { dataDir: dir });
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "plumbline-rl-"));
      a = await open();
      await sql`delete from rate_limit_windows`.execute(a.db);
      b = await open(); // a second instance over the same database
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("counts hits per key within a window and restarts the count in the next one", async () => {
      const store = createSqlRateLimitStore(a.db);
      const t = 1_800_000_000_000;
      expect(await store.hit("acct_1", 60_000, t)).toEqual({ count: 1, resetAtMs: t + 60_000 });
      expect(await store.hit("acct_1", 60_000, t + 59_999)).toEqual({ count: 2, resetAtMs: t + 60_000 });
      expect(await store.hit("acct_2", 60_000, t + 1)).toEqual({ count: 1, resetAtMs: t + 60_000 });
      expect(await store.hit("acct_1", 60_000, t + 60_000)).toEqual({ count: 1, resetAtMs: t + 120_000 });
      // a lagging clock still counts in the newer window instead of resetting it
      expect(await store.hit("acct_1", 60_000, t + 59_000)).toEqual({ count: 2, resetAtMs: t + 120_000 });
    });

    it("loses no hit under concurrency, across two instances sharing the database", async () => {
      const one = createSqlRateLimitStore(a.db);
      const two = createSqlRateLimitStore(b.db);
      const t = 1_800_000_060_000;
      const counts = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).hit("shared", 60_000, t + i)),
      );
      expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  });
}
