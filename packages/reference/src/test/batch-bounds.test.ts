// D-batch-execution against the reference: a batch of crawls to a target that never answers ends by the batch's
// deadline, uncharged; a client that hangs up gets its held credit back at once; entries run a few at a time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningReference, startReference } from "../start-reference.ts";
import { type HostileSite, startHostileSite } from "./hostile-site.ts";

const KEY = "BATCH";
const CREDITS = 100;
const DEADLINE_MS = 3_000;
let site: HostileSite;
let ref: RunningReference;
/** the same, with a deadline past every fetch's own 15 s timeout: a hold released within 10 s of a hang-up was
 * released by the hang-up, however slow this machine is, not by the end of its batch or of its fetch */
let patient: RunningReference;
let dir: string;
/** the balance once the warm-up crawl is paid */
let start: number;

const auth = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
const balanceOf = async (r: RunningReference) =>
  ((await (await fetch(`${r.url}/usage`, { headers: auth })).json()) as { usage: number }).usage;
const balance = () => balanceOf(ref);
const HANG_UP_MS = 10_000;
const never = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ url: `${site.url}/never?${i}` })));

beforeAll(async () => {
  site = await startHostileSite();
  dir = mkdtempSync(join(tmpdir(), "plumbline-batch-"));
  ref = await startReference({
    port: 0,
    dataDir: dir,
    keys: [{ key: KEY, credits: CREDITS }],
    allowPrivateNetwork: true,
    rateLimits: { perAccount: 0 },
    batchLimits: { concurrency: 4, deadlineMs: DEADLINE_MS },
  });
  patient = await startReference({
    port: 0,
    dataDir: join(dir, "patient"),
    keys: [{ key: KEY, credits: CREDITS }],
    allowPrivateNetwork: true,
    rateLimits: { perAccount: 0 },
    batchLimits: { concurrency: 4, deadlineMs: 120_000 },
  });
  // the parsing workers load once, before any batch is timed
  await fetch(`${ref.url}/crawl`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ url: `${site.url}/ok`, enableFallback: false }),
  });
  start = await balance();
}, 60_000);
afterAll(async () => {
  await ref?.close();
  await patient?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("batches are bounded (D-batch-execution)", () => {
  it("a batch of 20 crawls of a target that never answers ends by its deadline with 502, uncharged", async () => {
    const t = performance.now();
    const r = await fetch(`${ref.url}/crawl`, { method: "POST", headers: auth, body: never(20) });
    const ms = performance.now() - t;
    expect(r.status).toBe(502);
    expect(await r.json()).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    // ended by the deadline, not by each fetch's own 15 s timeout (the slack is for a loaded machine, not a budget)
    expect(ms).toBeLessThan(DEADLINE_MS + 10_000);
    expect(await balance()).toBe(start);
  });

  it("holds only the running entries' credit, and releases it at once when the client hangs up", async () => {
    const client = new AbortController();
    const full = await balanceOf(patient);
    const pending = fetch(`${patient.url}/crawl`, {
      method: "POST",
      headers: auth,
      body: never(20),
      signal: client.signal,
    });
    pending.catch(() => {});
    // four entries run at once, so four credits are held while they wait on the target
    await expect.poll(() => balanceOf(patient), { timeout: HANG_UP_MS, interval: 20 }).toBe(full - 4);
    client.abort();
    await expect.poll(() => balanceOf(patient), { timeout: HANG_UP_MS, interval: 20 }).toBe(full);
  });

  it("a single crawl's hold is released when its client hangs up", async () => {
    const client = new AbortController();
    const full = await balanceOf(patient);
    const pending = fetch(`${patient.url}/crawl`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ url: `${site.url}/never` }),
      signal: client.signal,
    });
    pending.catch(() => {});
    await expect.poll(() => balanceOf(patient), { timeout: HANG_UP_MS, interval: 20 }).toBe(full - 1);
    client.abort();
    await expect.poll(() => balanceOf(patient), { timeout: HANG_UP_MS, interval: 20 }).toBe(full);
  });

  it("keeps entry order and charges each success (a batch mixing pages that fail and succeed)", async () => {
    const before = await balance();
    const urls = ["/ok", "/binary-as-html", "/ok?2", "/missing", "/ok?3"].map((p) => ({ url: `${site.url}${p}` }));
    const r = await fetch(`${ref.url}/crawl`, { method: "POST", headers: auth, body: JSON.stringify(urls) });
    expect(r.status).toBe(200);
    const list = (await r.json()) as Array<{ crawlParameters: { url: string } }>;
    expect(list.map((e) => e.crawlParameters.url)).toEqual([urls[0].url, urls[2].url, urls[4].url]);
    expect(await balance()).toBe(before - 3);
    expect(before).toBe(start);
  });
});
