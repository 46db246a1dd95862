// D-charging on deepcrawl (issue 38): a start URL whose host resolves to a refused address is refused at submission,
// uncharged, as /crawl refuses it; a task that fails afterwards (a name that resolves privately only when the worker
// fetches it, an unreachable site, the worker's attempts limit) gives its 20 credits back as a "refund" ledger row,
// so the balance is always the initial credits minus the ledger's rows.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { balance, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import type { Resolver } from "../engines/guarded-lookup.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

const KEY = "refund-test-key";
const CREDITS = 1000;
let contract: Contract;
let ref: RunningReference | null = null;
let dir: string | null = null;

beforeAll(async () => {
  contract = await loadContract();
});
afterEach(async () => {
  await ref?.close();
  ref = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function boot(o: NonNullable<Parameters<typeof startReference>[0]>) {
  dir = mkdtempSync(join(tmpdir(), "plumbline-refunds-"));
  ref = await startReference({
    port: 0,
    dataDir: dir,
    keys: [{ key: KEY, credits: CREDITS }],
    contract,
    authServer: false,
    ...o,
    deepcrawlSettings: { hostDelayMs: 0, pollMs: 50, ...o.deepcrawlSettings },
  });
  return ref;
}

/** The ledger of the test key's account, and the invariant it must keep with the balance. */
async function ledgerOf(r: RunningReference) {
  const account = await r.accounts.authenticate(KEY);
  const rows = await r.accounts.ledger(account?.id as string);
  const now = await balance(r.url, KEY);
  expect(now, "balance = initial credits - the ledger's rows").toBe(CREDITS - rows.reduce((s, e) => s + e.credits, 0));
  return rows;
}

/** Starts a task (202, 20 credits) and polls it to its end. */
async function failedTask(r: RunningReference, url: string) {
  const res = await startDeepcrawl(r.url, KEY, { url });
  expect(res.status).toBe(202);
  const { taskId } = (await res.json()) as { taskId: string };
  // (the 20 credits charged may be back already: the ledger below shows the charge and its refund)
  // a hang detector only: the failures below come in milliseconds
  const { last } = await pollUntil(r.url, taskId, 30_000, KEY);
  expect(last.status).toBe("failed");
  // the refund is written right after the failure: waited for as an event, not a delay
  await expect.poll(() => balance(r.url, KEY), { timeout: 10_000, interval: 20 }).toBe(CREDITS);
  return { taskId, last };
}

const publicAddress = "93.184.215.14";

describe("deepcrawl refunds (D-charging)", () => {
  it("refuses a host that resolves to a private address at submission, uncharged, as /crawl does", async () => {
    const resolve: Resolver = async (host) =>
      host === "private.example" ? [{ address: "127.0.0.1", family: 4 }] : [{ address: publicAddress, family: 4 }];
    const r = await boot({ resolve });
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    const crawl = await fetch(`${r.url}/crawl`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: "http://private.example/" }),
    });
    const deep = await startDeepcrawl(r.url, KEY, { url: "http://private.example/", type: "all" });
    expect(crawl.status).toBe(400);
    expect(deep.status).toBe(crawl.status);
    const [c, d] = (await Promise.all([crawl.json(), deep.json()])) as Array<{ code: string; message: string }>;
    expect(d.code).toBe("PLB_BAD_VALUE");
    expect(d.code).toBe(c.code);
    expect(d.message).toMatch(/private\.example resolves to 127\.0\.0\.1, which is a loopback address/);
    expect(await balance(r.url, KEY)).toBe(CREDITS);
    expect(await ledgerOf(r)).toEqual([]);
    expect(await r.deepcrawl?.store.claim("probe", Date.now(), 1)).toBeNull(); // no task was made
  });

  it("refunds a task that fails because its host resolves privately only when the worker fetches it", async () => {
    let asked = 0;
    // DNS rebinding: public when the start is screened, loopback for every fetch after that
    const resolve: Resolver = async () =>
      ++asked === 1 ? [{ address: publicAddress, family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
    const r = await boot({ resolve });
    const { taskId, last } = await failedTask(r, "http://rebind.example/");
    expect(last.error).toMatch(/rebind\.example resolves to 127\.0\.0\.1|loopback/);
    const rows = await ledgerOf(r);
    expect(rows.map((e) => [e.operationId, e.credits])).toEqual([
      ["deepcrawl", 20],
      ["refund", -20],
    ]);
    expect(rows[1].balanceAfter).toBe(CREDITS);
    // the refund references the request that was charged, once: polling again refunds nothing more
    await pollUntil(r.url, taskId, 5_000, KEY, () => true);
    expect(await ledgerOf(r)).toHaveLength(2);
  });

  it("refunds a task whose site cannot be reached (an upstream failure)", async () => {
    const r = await boot({ allowPrivateNetwork: true });
    // port 1 on loopback: nothing listens, the connect is refused at once
    const { last } = await failedTask(r, "http://127.0.0.1:1/");
    expect(last.error).toMatch(/robots\.txt|could not be fetched|Discovering/);
    expect((await ledgerOf(r)).map((e) => [e.operationId, e.credits])).toEqual([
      ["deepcrawl", 20],
      ["refund", -20],
    ]);
  });

  it("refunds a task the worker gives up on (its attempts limit)", async () => {
    // no attempt allowed: the worker's first claim already exceeds the limit, the path of a task whose servers
    // crashed too often while crawling it
    const r = await boot({ allowPrivateNetwork: true, deepcrawlSettings: { maxAttempts: 0 } });
    const { last } = await failedTask(r, "http://127.0.0.1:1/");
    expect(last.error).toMatch(/interrupted .* times/);
    expect((await ledgerOf(r)).map((e) => [e.operationId, e.credits])).toEqual([
      ["deepcrawl", 20],
      ["refund", -20],
    ]);
  });

  it("refunds nothing to a task started and abandoned before it was charged", async () => {
    const r = await boot({ allowPrivateNetwork: true });
    const account = await r.accounts.authenticate(KEY);
    expect(await r.accounts.refund(account?.id as string, "req-never-charged")).toBe(0);
    expect(await ledgerOf(r)).toEqual([]);
  });
});

describe("a refund cut off by a crash (D-charging)", () => {
  it("is written at the next start, once", async () => {
    // the worker recorded the failure and the process died before the refund: the ledger shows the charge only
    // (its worker claims nothing: the task below is claimed and failed by a "dead" worker of the test's own)
    const first = await boot({ allowPrivateNetwork: true, deepcrawlSettings: { maxTasks: 0 } });
    const account = (await first.accounts.authenticate(KEY))?.id as string;
    await first.deepcrawl?.store.insertTask({
      task_id: "dc_crashed_before_refund",
      account_id: account,
      url: "http://127.0.0.1:1/",
      type: "sitemap",
      message: "Queued",
      created_at: new Date().toISOString(),
      request_id: "req-crashed",
    });
    const hold = await first.accounts.hold(account, 20, { operationId: "deepcrawl", requestId: "req-crashed" });
    await first.accounts.settle(hold as NonNullable<typeof hold>);
    const store = first.deepcrawl?.store as NonNullable<RunningReference["deepcrawl"]>["store"];
    const claimed = await store.claim("a-dead-worker", Date.now(), 60_000);
    expect(claimed?.task_id).toBe("dc_crashed_before_refund");
    await store.update("dc_crashed_before_refund", "a-dead-worker", {
      status: "failed",
      message: "The crawl failed",
      error: "the worker died",
      completed_at: new Date().toISOString(),
    });
    expect((await ledgerOf(first)).map((e) => e.operationId)).toEqual(["deepcrawl"]);
    const dataDir = dir as string;
    await first.close();

    ref = await startReference({ port: 0, dataDir, contract, authServer: false });
    expect((await ledgerOf(ref)).map((e) => [e.operationId, e.credits])).toEqual([
      ["deepcrawl", 20],
      ["refund", -20],
    ]);
    await ref.close();
    // and a second start gives nothing more
    ref = await startReference({ port: 0, dataDir, contract, authServer: false });
    expect(await ledgerOf(ref)).toHaveLength(2);
  });
});
