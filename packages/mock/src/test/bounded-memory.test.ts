// A long-running mock keeps bounded memory (issue 38): finished deepcrawl tasks expire after their retention on the
// mock clock and are capped (the oldest finished first, never a running task), the journal is a ring, and every
// other store that grows with traffic is capped or swept; GET /__mock/stats shows each count against its bound.

import { createMemoryPaymentStore, type PaymentRecord } from "@plumbline-kit/platform/payment-store";
import { createMemoryRateLimitStore } from "@plumbline-kit/platform/stores";
import { describe, expect, it } from "vitest";
import { createMemoryAccounts } from "../memory-accounts.ts";
import type { MockStats } from "../mock-state.ts";
import { createOAuthAuthority, OAUTH_MAX_KEPT } from "../oauth-authority.ts";
import { useMock } from "./harness.ts";

const START = Date.parse("2026-11-25T12:00:00Z");
const RETENTION_S = 60;
const MAX_TASKS = 5;
const JOURNAL = 20;
const CACHE = 10;

const h = useMock({
  clock: "manual",
  startTime: START,
  deepcrawlSteps: { queuedMs: 1000, waitingMs: 1000, processingMs: 1000 },
  deepcrawlRetentionSeconds: RETENTION_S,
  deepcrawlMaxTasks: MAX_TASKS,
  journalSize: JOURNAL,
  cacheSize: CACHE,
});

type Status = { taskId: string; status: string; zipUrl?: string | null };
const advance = (ms: number) => h.admin("POST", "/clock/advance", { ms });
const start = async (url = "https://docs.example.com/") => {
  const r = await h.post("/deepcrawl", { url });
  expect(r.status).toBe(202);
  return (r.body as { taskId: string }).taskId;
};
const status = async (taskId: string) => {
  const r = await h.get(`/deepcrawl/status/${taskId}`);
  return { ...(r.body as Status), http: r.status };
};
const stats = async () => {
  const r = await h.admin("GET", "/stats");
  expect(r.status).toBe(200);
  return (r.body as { stores: MockStats }).stores;
};

describe("finished deepcrawl tasks", () => {
  it("expire after the retention on the manual clock, then answer as an unknown task, zip included", async () => {
    await h.admin("POST", "/reset");
    const id = await start();
    await advance(3000); // finished
    const done = await status(id);
    expect(done).toMatchObject({ http: 200, status: "completed" });
    const zip = await fetch(done.zipUrl as string);
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    expect((await stats()).deepcrawlTasks).toMatchObject({ count: 1, finished: 1, zips: 1, expired: 0 });

    await advance(RETENTION_S * 1000 - 1); // one ms before the retention ends
    expect(await status(id)).toMatchObject({ http: 200, status: "completed" });
    await advance(1);
    const gone = await status(id);
    expect(gone).toMatchObject({ http: 404, taskId: id, status: "not_found" });
    // the link handed out before (signed for an hour, still unexpired) finds no package either
    const late = await fetch(done.zipUrl as string);
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ ok: false, code: "PLB_TASK_NOT_FOUND" });
    expect((await stats()).deepcrawlTasks).toMatchObject({ count: 0, zips: 0, zipBytes: 0, expired: 1 });
  });

  it("are capped: past the cap the oldest finished go first", async () => {
    await h.admin("POST", "/reset");
    const ids: string[] = [];
    for (let i = 0; i < MAX_TASKS + 3; i++) {
      ids.push(await start());
      await advance(100);
    }
    await advance(3000); // every one finished, none expired
    const newest = await start(); // a start sweeps: 8 finished, cap 5
    const after = await Promise.all(ids.map(status));
    expect(after.map((s) => s.http)).toEqual([404, 404, 404, 200, 200, 200, 200, 200]);
    expect(after.slice(3).every((s) => s.status === "completed")).toBe(true);
    expect(await status(newest)).toMatchObject({ http: 200, status: "queued" });
    expect((await stats()).deepcrawlTasks).toMatchObject({
      count: MAX_TASKS + 1,
      running: 1,
      finished: MAX_TASKS,
      maxFinished: MAX_TASKS,
      retentionSeconds: RETENTION_S,
      evicted: 3,
    });
  });

  it("never drops a running task, however many run at once", async () => {
    await h.admin("POST", "/reset");
    const running: string[] = [];
    for (let i = 0; i < MAX_TASKS * 3; i++) running.push(await start());
    const now = await Promise.all(running.map(status));
    expect(now.every((s) => s.http === 200 && s.status === "queued")).toBe(true);
    expect((await stats()).deepcrawlTasks).toMatchObject({ count: MAX_TASKS * 3, running: MAX_TASKS * 3 });
    // once they finish, only the cap's worth stays: the newest, as all finished at the same moment
    await advance(3000);
    const later = await Promise.all(running.map(status));
    expect(later.filter((s) => s.http === 200).map((s) => s.taskId)).toEqual(running.slice(-MAX_TASKS));
    expect((await stats()).deepcrawlTasks).toMatchObject({ count: MAX_TASKS, running: 0, finished: MAX_TASKS });
  });

  it("stay at their cap while many tasks are driven through to completion, as does every store", async () => {
    await h.admin("POST", "/reset");
    const seen: number[] = [];
    for (let i = 0; i < 120; i++) {
      const id = await start(i % 4 === 0 ? "https://example.com/status/500" : "https://docs.example.com/");
      await advance(1500);
      await h.post("/search", { query: `bounded memory ${i}` });
      if (i % 2 === 1) {
        await advance(1500);
        expect((await status(id)).status).toMatch(/^(completed|failed)$/);
      }
      const s = await stats();
      seen.push(s.deepcrawlTasks.count);
      expect(s.deepcrawlTasks.finished).toBeLessThanOrEqual(MAX_TASKS);
      expect(s.deepcrawlTasks.running).toBeLessThanOrEqual(2); // 3 s of steps, a start every 1.5 to 3 s
      expect(s.journal.count).toBeLessThanOrEqual(JOURNAL);
      expect(s.cache.count).toBeLessThanOrEqual(CACHE);
    }
    const s = await stats();
    expect(Math.max(...seen)).toBeLessThanOrEqual(MAX_TASKS + 2);
    expect(s.deepcrawlTasks.evicted).toBeGreaterThan(100);
    expect(s.journal).toMatchObject({ count: JOURNAL, max: JOURNAL });
    expect(s.journal.recorded).toBeGreaterThanOrEqual(120 * 2);
    expect(s.cache).toMatchObject({ count: CACHE, max: CACHE });
  });
});

describe("the request journal", () => {
  it("stays at its cap and keeps the newest requests", async () => {
    await h.admin("POST", "/reset");
    for (let i = 0; i < JOURNAL * 3; i++) await h.get("/health", null);
    const { entries } = (await h.admin("GET", "/journal")).body as { entries: Array<{ seq: number }> };
    expect(entries).toHaveLength(JOURNAL);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: JOURNAL }, (_, i) => JOURNAL * 2 + i + 1));
    expect((await stats()).journal).toEqual({ count: JOURNAL, max: JOURNAL, recorded: JOURNAL * 3 });
  });
});

describe("GET /__mock/stats", () => {
  it("shows each store's count against its bound", async () => {
    await h.admin("POST", "/reset");
    await start();
    await h.post("/search", { query: "stats" });
    const r = await h.admin("GET", "/stats");
    expect(r.status).toBe(200);
    const { clock, stores } = r.body as { clock: { mode: string }; stores: MockStats };
    expect(clock.mode).toBe("manual");
    expect(stores.deepcrawlTasks).toMatchObject({ count: 1, running: 1, finished: 0, maxFinished: MAX_TASKS });
    expect(stores.journal).toMatchObject({ count: 2, max: JOURNAL });
    // a reset keeps the memo: the same seed and request give the same answer
    expect(stores.cache).toMatchObject({ max: CACHE, maxBytes: 64 * 1024 * 1024 });
    expect(stores.cache.count).toBeGreaterThan(0);
    expect(stores.cache.count).toBeLessThanOrEqual(CACHE);
    expect(stores.cache.bytes).toBeGreaterThan(0);
    expect(stores.accounts).toMatchObject({ count: 2, max: null });
    expect(stores.ledger).toMatchObject({ count: 2, max: 10_000 });
    expect(stores.payments).toMatchObject({ count: 0, max: 10_000 });
    expect(stores.oauthClients).toMatchObject({ count: 0, max: OAUTH_MAX_KEPT });
    expect(stores.replayUnmatched).toBeNull();
    const listed = ((await h.admin("GET", "")).body as { endpoints: string[] }).endpoints;
    expect(listed).toContain("GET /__mock/stats");
  });
});

describe("the other stores that grow with traffic", () => {
  it("rate-limit windows that ended are swept", async () => {
    const store = createMemoryRateLimitStore();
    const windowMs = 60_000;
    for (let w = 0; w < 5; w++)
      for (let k = 0; k < 3000; k++) await store.hit(`acct_${w}_${k}`, windowMs, START + w * windowMs);
    // 15,000 keys hit over five windows: only about the current window's are held
    expect(store.size()).toBeLessThanOrEqual(2 * 3000);
    expect((await store.hit("acct_4_0", windowMs, START + 4 * windowMs)).count).toBe(2);
  });

  it("payment claims past their challenge's expiry are swept, the payments list keeps the newest", async () => {
    const store = createMemoryPaymentStore(100);
    const past = Date.now() - 1;
    for (let i = 0; i < 1000; i++) expect(await store.claim(`ch_old_${i}`, past)).toBe(true);
    expect(store.stats().claims).toBeLessThanOrEqual(200);
    const live = Date.now() + 60_000;
    expect(await store.claim("ch_live", live)).toBe(true);
    for (let i = 0; i < 1000; i++) await store.claim(`ch_old2_${i}`, past);
    expect(await store.claim("ch_live", live)).toBe(false); // a live claim is never swept: a replay is refused
    const payment = (i: number) => ({ id: `pay_${i}`, operationId: "search" }) as PaymentRecord;
    for (let i = 0; i < 1000; i++) await store.record(payment(i));
    const listed = await store.list();
    expect(listed).toHaveLength(100);
    expect(listed[0].id).toBe("pay_999");
    expect(store.stats().payments).toBe(100);
  });

  it("OAuth clients and codes (live ones too) are kept to their bound", () => {
    let now = START;
    const accounts = createMemoryAccounts(() => now);
    accounts.create({ key: "k", credits: 1 });
    const oauth = createOAuthAuthority(accounts, () => now);
    for (let i = 0; i < OAUTH_MAX_KEPT + 500; i++) {
      const r = oauth.register({ redirect_uris: ["http://127.0.0.1/cb"] });
      expect(r.ok).toBe(true);
      now += 1;
    }
    expect(oauth.stats().clients).toBeLessThanOrEqual(OAUTH_MAX_KEPT);
    const client = oauth.register({ redirect_uris: ["http://127.0.0.1/cb"] });
    if (!client.ok) throw new Error(client.description);
    for (let i = 0; i < OAUTH_MAX_KEPT + 500; i++) {
      const r = oauth.authorize(
        {
          response_type: "code",
          client_id: client.value.client_id,
          redirect_uri: "http://127.0.0.1/cb",
          code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          code_challenge_method: "S256",
        },
        "http://mock.test",
      );
      expect("params" in r && r.params.code).toBeTruthy();
    }
    expect(oauth.stats().codes).toBeLessThanOrEqual(OAUTH_MAX_KEPT);
    expect(oauth.stats().codes).toBeGreaterThan(OAUTH_MAX_KEPT * 0.8);
  });
});
