// Scale-out on PostgreSQL (issue 11): workers of several instances share one queue without taking a task twice
// (FOR UPDATE SKIP LOCKED in the claim), and a package written by one instance is served by another (one package
// directory shared by both). Runs in a schema of its own, so the other PostgreSQL tests can drop their tables
// meanwhile. PLUMBLINE_REQUIRE_POSTGRES=1 (CI) makes a missing database a failure, not a skip.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { startTestSite, type TestSite } from "../../../../test-support/deepcrawl-site.ts";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { openDatabase } from "../store/open-database.ts";
import { createSqlDeepcrawlStore } from "../store/sql-deepcrawl.ts";
import { crawlOnAServeFromB, startPair } from "../test/scale-out-pair.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const SCHEMA = "plumbline_deepcrawl_test";
const KEY = "pg-deepcrawl-key";
// how often a status is polled and an idle worker looks for a task started elsewhere: each is a query on PostgreSQL
// and ~1-3 ms of CPU here, and these crawls take seconds (tens on a loaded machine)
const POLL_MS = 250;
// one parse thread per instance: these crawls are small, and each worker started costs its load (~1 CPU-s)
const PARSING = { threads: 1 };

describe("PostgreSQL for the deepcrawl scale-out tests", () => {
  it("is configured wherever it is required", () => {
    if (process.env.PLUMBLINE_REQUIRE_POSTGRES === "1") expect(PG, "PLUMBLINE_TEST_DATABASE_URL").toMatch(/^postgres/);
  });
});

describe.skipIf(!PG)("deepcrawl on PostgreSQL with two instances", () => {
  let url = "";
  let site: TestSite;
  let packageDir = "";
  const instances: RunningReference[] = [];

  beforeAll(async () => {
    url = await freshPostgresSchema(PG as string, SCHEMA);
    site = await startTestSite({ pages: 20 });
    packageDir = mkdtempSync(join(tmpdir(), "plumbline-pg-packages-"));
  });
  afterAll(async () => {
    for (const r of instances) await r.close();
    await site?.close();
    rmSync(packageDir, { recursive: true, force: true });
  });

  it("never lets two workers claim the same task", async () => {
    const opened = await openDatabase({ databaseUrl: url });
    try {
      const store = await createSqlDeepcrawlStore(opened.db, opened.dialect);
      const now = Date.now();
      for (let i = 0; i < 20; i++)
        await store.insertTask({
          task_id: `dc_race_${i}`,
          account_id: "acct_race",
          url: "https://example.com/",
          type: "sitemap",
          message: "Queued",
          created_at: new Date(now + i).toISOString(),
        });
      const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => store.claim(`owner_${i}`, now, 60_000)));
      const got = claims.filter((c) => c !== null).map((c) => c?.task_id);
      expect(got).toHaveLength(20);
      expect(new Set(got).size).toBe(20);
      // a live lease is not taken; an expired one is, by a new owner, and counts a new attempt
      expect(await store.claim("late", now + 1000, 60_000)).toBeNull();
      const over = await store.claim("late", now + 61_000, 60_000);
      expect(over).toMatchObject({ lease_owner: "late", attempts: 2, status: "waiting" });
      expect(await store.renew(over?.task_id as string, "owner_0", now + 120_000)).toBe(false);
      await opened.db.deleteFrom("deepcrawl_tasks" as never).execute();
    } finally {
      await opened.close();
    }
  });

  it("runs a task on one instance and serves its zip from the other", { timeout: 60_000 }, async () => {
    const common = {
      port: 0,
      databaseUrl: url,
      packageDir,
      keys: [{ key: KEY, credits: 500 }],
      allowPrivateNetwork: true,
      parsing: PARSING,
      deepcrawlSettings: { pollMs: POLL_MS },
    };
    // A crawls; B only answers
    const pair = await startPair(() => common);
    instances.push(pair.a, pair.b);
    await crawlOnAServeFromB(pair, KEY, site, POLL_MS);
    const { a } = pair;
    expect(await balance(a.url, KEY)).toBe(480);
  });

  it("shares the queue between two crawling instances, each task run once", { timeout: 90_000 }, async () => {
    const tiny = await startTestSite({ pages: 3 });
    const common = { port: 0, databaseUrl: url, packageDir, allowPrivateNetwork: true, parsing: PARSING };
    const c = await startReference({ ...common, deepcrawlSettings: { hostDelayMs: 0, pollMs: POLL_MS, maxTasks: 1 } });
    instances.push(c);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await startDeepcrawl(i % 2 ? c.url : instances[0].url, KEY, {
        url: `${site.url}/p/${i}`,
        type: "all",
      });
      ids.push(((await res.json()) as { taskId: string }).taskId);
    }
    const owners = new Set<string>();
    for (const id of ids) {
      expect((await pollUntil(c.url, id, 60_000, KEY, undefined, POLL_MS)).last.status).toBe("completed");
      const row = await c.deepcrawl?.store.getTask(id);
      expect(row?.attempts).toBe(1);
      owners.add(row?.lease_owner as string);
    }
    expect(owners.size).toBe(2);
    const zips = readdirSync(join(packageDir, "deepcrawl"), { recursive: true }).filter((f) =>
      String(f).endsWith(".zip"),
    );
    expect(zips).toHaveLength(7);
    await tiny.close();
  });
});
