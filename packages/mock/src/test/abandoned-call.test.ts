// D-batch-execution: a client that hangs up gets its held credits back at once, and nothing it asked for is
// charged afterwards. The crawl engine here ignores the cancellation and runs until the test lets it end, as a slow
// upstream or a stuck parse does, so a hold released only when its entry ends would show as a late rise of the
// balance (issue 25: the gate's fuzz stage read the balance after abandoning a batch and saw it rise by one). No
// step waits on a guessed time: the client hangs up once the engines have started, and they end when told.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { loadContract } from "@plumbline-kit/contract";
import { createPlatform } from "@plumbline-kit/platform/create-platform";
import type { Engines } from "@plumbline-kit/platform/engines";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSyntheticEngines } from "../engines/index.ts";
import { createMockState, type MockState } from "../mock-state.ts";

const KEY = "abandon-key";
const CREDITS = 100;

let app: FastifyInstance;
let state: MockState;
let base: string;
/** crawl engine runs started and ended; each runs until `finish()`, whatever its signal says */
let started = 0;
let ended = 0;
let finish: () => void = () => {};
/** the signal each crawl engine run was handed, read as the run starts (as a fetch would take it) */
const signals: Array<AbortSignal | undefined> = [];
let finished = Promise.resolve();
const waiters: Array<() => void> = [];
function holdEngines() {
  finished = new Promise<void>((r) => {
    finish = r;
  });
}
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((r) => waiters.push(r));
}
const tick = () => {
  for (const w of waiters.splice(0)) w();
};
/** the microtasks and one turn of the event loop after an engine ends (where a settle or release would run) */
const settled = () => new Promise((r) => setImmediate(() => setImmediate(r)));

beforeAll(async () => {
  const contract = await loadContract();
  state = createMockState({ contract, keys: [{ key: KEY, credits: CREDITS }], clock: "real" });
  const synthetic = createSyntheticEngines({ contract, now: () => new Date() });
  const engines: Engines = {
    ...synthetic,
    crawl: async (req, ctx) => {
      signals.push(ctx.signal);
      started++;
      tick();
      await finished;
      ended++;
      tick();
      return synthetic.crawl(req, ctx);
    },
  };
  app = await createPlatform({
    contract,
    accounts: state.apiAccounts,
    rateLimitStore: state.rateLimitStore,
    clock: state.clock,
    engines,
    deepcrawl: state.deepcrawl,
    rateLimits: { perAccount: 0 },
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app?.close());

/** The balance `GET /usage` reports (its `usage` field: the credits left, D-usage-period). */
async function balance(): Promise<number> {
  const res = await fetch(`${base}/usage`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { usage: number }).usage;
}

/** Sends a POST and destroys the connection once `running` crawls have started; resolves when it is closed. */
function abandon(path: string, body: unknown, running: number): Promise<void> {
  const from = started;
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = request(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    });
    req.on("error", () => {}); // the socket we destroy
    req.on("close", () => resolve());
    req.end(payload);
    until(() => started - from >= running).then(() => req.destroy());
  });
}

describe("a client that hangs up", () => {
  it("gets a batch's held credits back before its next request is read, and no later change", async () => {
    const before = await balance();
    holdEngines();
    const from = started;
    // 12 entries, 4 at a time: 4 holds are taken and their engines still run when the client hangs up
    const batch = Array.from({ length: 12 }, (_, i) => ({ url: `https://example.com/abandoned/${i}` }));
    const seen = signals.length;
    await abandon("/crawl", batch, 4);
    expect(await balance()).toBe(before);
    expect(ended - from, "the entries still run").toBe(0);
    // issue 12: the running entries' engines were told (the signal an engine took when it started aborts)
    expect(signals.slice(seen).map((signal) => signal?.aborted)).toEqual([true, true, true, true]);
    // they end after the hang-up: neither a charge nor a second release may follow, and no entry starts
    finish();
    await until(() => ended - from === 4);
    await settled();
    expect(started - from).toBe(4);
    expect(await balance()).toBe(before);
  });

  it("is not charged for a single call still running when it hung up", async () => {
    const before = await balance();
    holdEngines();
    const from = started;
    const seen = signals.length;
    await abandon("/crawl", { url: "https://example.com/abandoned/single" }, 1);
    expect(await balance()).toBe(before);
    expect(signals[seen]?.aborted, "the engine's signal aborts with the hang-up").toBe(true);
    expect(String((signals[seen]?.reason as Error | undefined)?.message)).toBe("the client closed the connection");
    finish();
    await until(() => ended - from === 1);
    await settled();
    expect(await balance()).toBe(before);
  });

  it("is charged for the calls it waited for", async () => {
    const before = await balance();
    holdEngines();
    finish();
    const seen = signals.length;
    const res = await fetch(`${base}/crawl`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify([{ url: "https://example.com/kept/1" }, { url: "https://example.com/kept/2" }]),
    });
    expect(res.status).toBe(200);
    expect(await balance()).toBe(before - 2);
    // answered, then closed: not a hang-up
    expect(signals.slice(seen).map((signal) => signal?.aborted)).toEqual([false, false]);
  });
});
