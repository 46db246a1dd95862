// Scale-out on PostgreSQL (issue 11): workers of several instances share one queue without taking a task twice
// (FOR UPDATE SKIP LOCKED in the claim), and a package written by one instance is served by another (one package
// directory shared by both). Runs in a schema of its own, so the other PostgreSQL tests can drop their tables
// meanwhile. PLUMBLINE_REQUIRE_POSTGRES=1 (CI) makes a missing database a failure, not a skip.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningReference, startReference } from "../start-reference.ts";
import { openDatabase } from "../store/open-database.ts";
import { createSqlDeepcrawlStore } from "../store/sql-deepcrawl.ts";
import { balance, download, pollUntil, startDeepcrawl } from "./deepcrawl-client.ts";
import { phraseOf, startTestSite, type TestSite } from "./test-site.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const SCHEMA = "plumbline_deepcrawl_test";
const KEY = "pg-deepcrawl-key";

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
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`drop schema if exists ${SCHEMA} cascade`);
    await admin.query(`create schema ${SCHEMA}`);
    await admin.end();
    const u = new URL(PG as string);
    u.searchParams.set("options", `-c search_path=${SCHEMA}`);
    url = u.href;
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
    };
    // A crawls; B only answers (maxTasks 0: its worker never claims)
    const a = await startReference({ ...common, deepcrawlSettings: { hostDelayMs: 0, pollMs: 50 } });
    instances.push(a);
    const b = await startReference({ ...common, deepcrawlSettings: { maxTasks: 0, pollMs: 50 } });
    instances.push(b);
    const res = await startDeepcrawl(b.url, KEY, { url: `${site.url}/` });
    expect(res.status).toBe(202);
    const { taskId } = (await res.json()) as { taskId: string };
    const { last } = await pollUntil(b.url, taskId, 60_000);
    expect(last.status).toBe("completed");
    const row = await b.deepcrawl?.store.getTask(taskId);
    expect(row?.lease_owner).toBe(a.deepcrawl?.worker?.owner);
    expect(new URL(last.zipUrl as string).origin).toBe(b.url);
    const { manifest, documents } = await download(last.zipUrl as string);
    const pages = (manifest as { pages: Array<{ url: string; path: string }> }).pages;
    expect(pages).toHaveLength(20);
    for (const [i, p] of site.pagePaths.entries())
      expect(documents.get(pages.find((x) => x.url === `${site.url}${p}`)?.path as string)).toContain(phraseOf(i));
    expect(await balance(a.url, KEY)).toBe(480);
  });

  it("shares the queue between two crawling instances, each task run once", { timeout: 90_000 }, async () => {
    const tiny = await startTestSite({ pages: 3 });
    const common = { port: 0, databaseUrl: url, packageDir, allowPrivateNetwork: true };
    const c = await startReference({ ...common, deepcrawlSettings: { hostDelayMs: 0, pollMs: 50, maxTasks: 1 } });
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
      expect((await pollUntil(c.url, id, 60_000)).last.status).toBe("completed");
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
