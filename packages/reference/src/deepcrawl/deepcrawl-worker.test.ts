// The worker's lease handling (issue 11 "Crash safety") on SQLite, with a stand-in task runner: a task that keeps
// being interrupted fails with a clear error instead of being retried forever; a closing worker stops its tasks and
// releases their leases at once; a worker that lost its lease stops.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenedDatabase, openDatabase } from "../store/open-database.ts";
import { createSqlDeepcrawlStore, type SqlDeepcrawlStore } from "../store/sql-deepcrawl.ts";
import { startDeepcrawlWorker } from "./deepcrawl-worker.ts";

let dir: string;
let opened: OpenedDatabase;
let store: SqlDeepcrawlStore;
const clock = { now: () => Date.now() };
const quiet = () => {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-worker-"));
  opened = await openDatabase({ dataDir: dir });
  store = await createSqlDeepcrawlStore(opened.db, opened.dialect);
});
afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

const task = (id: string) =>
  store.insertTask({
    task_id: id,
    account_id: "acct",
    url: "https://example.com/",
    type: "sitemap",
    message: "Queued",
    created_at: new Date().toISOString(),
  });

async function until(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the deepcrawl worker", () => {
  it("fails a task claimed more than maxAttempts times with a clear error", async () => {
    await task("dc_crashy");
    // three earlier claims by workers that died (their leases long expired)
    for (let i = 0; i < 3; i++) await store.claim(`dead_${i}`, Date.now() - 10 * 60_000 * (3 - i), 1000);
    const ran: string[] = [];
    const w = startDeepcrawlWorker({
      store,
      clock,
      leaseMs: 1000,
      pollMs: 20,
      maxTasks: 1,
      maxAttempts: 3,
      run: async (t) => void ran.push(t.task_id),
      log: quiet,
    });
    await until(async () => (await store.getTask("dc_crashy"))?.status === "failed");
    await w.close();
    expect(ran).toEqual([]);
    expect((await store.getTask("dc_crashy"))?.error).toMatch(/interrupted 3 times/);
  });

  it("stops its running tasks on close and releases their leases for another instance", async () => {
    await task("dc_long");
    let started = false;
    const w = startDeepcrawlWorker({
      store,
      clock,
      leaseMs: 60_000,
      pollMs: 20,
      maxTasks: 1,
      maxAttempts: 3,
      run: (_t, _owner, signal) =>
        new Promise((_, reject) => {
          started = true;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
      log: quiet,
    });
    await until(async () => started);
    await w.close();
    const row = await store.getTask("dc_long");
    expect(row).toMatchObject({ status: "waiting", lease_owner: w.owner, lease_until: 0 });
    // not failed, and free to claim now, though the lease was for a minute
    expect((await store.claim("next", Date.now(), 1000))?.task_id).toBe("dc_long");
  });

  it("stops a task whose lease another worker took over", async () => {
    await opened.db.deleteFrom("deepcrawl_tasks" as never).execute();
    await task("dc_stolen");
    let aborted = false;
    const w = startDeepcrawlWorker({
      store,
      clock,
      leaseMs: 150,
      pollMs: 20,
      maxTasks: 1,
      maxAttempts: 3,
      run: (_t, _owner, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve();
          });
        }),
      log: quiet,
    });
    await until(async () => (await store.getTask("dc_stolen"))?.lease_owner === w.owner);
    // another instance claims it as if the lease had run out (its clock is ahead)
    expect(await store.claim("thief", Date.now() + 10_000, 60_000)).not.toBeNull();
    await until(async () => aborted);
    await w.close();
    expect((await store.getTask("dc_stolen"))?.lease_owner).toBe("thief");
  });
});
