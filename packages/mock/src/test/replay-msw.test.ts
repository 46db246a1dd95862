// Replay through the MSW handlers (issue 28): the same recording gives the same answers in-process as over a
// socket, stateful alike (credits, 402, 422), since both drive the one Fastify instance and its replay hook.

import { type Contract, loadContract } from "@plumbline-kit/contract";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHandlers, type MockHandlers } from "../msw/index.ts";
import type { HarDocument } from "../replay/har-file.ts";
import { type RunningMock, startMock } from "../start-mock.ts";
import { capture, harOf } from "./har-writer.ts";

const START = Date.parse("2026-03-01T09:00:00Z");
let contract: Contract;
let har: HarDocument;

interface Seen {
  name: string;
  status: number;
  type: string;
  body: string;
}

/** A client session; bodies with the base URL made one, so two targets compare. */
async function session(base: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  const keep = async (name: string, res: Response) => {
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get("content-type") ?? "";
    const body = /json/.test(type) ? bytes.toString().split(base).join("BASE") : bytes.toString("base64");
    seen.push({ name, status: res.status, type, body });
    return bytes;
  };
  const post = (path: string, body: unknown, key = "k") =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
  const usage = async () => keep("usage", await fetch(`${base}/usage`, { headers: { authorization: "Bearer k" } }));
  await keep("search", await post("/search", { query: "alpha" }));
  await keep("batch", await post("/search", [{ query: "one" }, { query: "__fail_502__" }]));
  await keep("crawl 404", await post("/crawl", { url: "https://example.com/x/status/404" }));
  await keep("screenshot", await post("/screenshot", { url: "https://example.com/" }));
  const { taskId } = JSON.parse(
    (await keep("deepcrawl", await post("/deepcrawl", { url: "https://a.example/" }))).toString(),
  );
  let zipUrl: string | null = null;
  for (let i = 0; i < 4; i++) {
    const poll = await fetch(`${base}/deepcrawl/status/${taskId}`, { headers: { authorization: "Bearer k" } });
    zipUrl = JSON.parse((await keep(`poll ${i}`, poll)).toString()).zipUrl ?? zipUrl;
  }
  await keep("zip", await fetch(zipUrl as string));
  await keep("402", await post("/search", { query: "alpha" }, "broke"));
  await keep("422", await post("/search", { query: "alpha", max_results: 0 }));
  await usage();
  return seen;
}

beforeAll(async () => {
  contract = await loadContract();
  const source = await startMock({
    port: 0,
    contract,
    seed: 5,
    clock: "manual",
    startTime: START,
    keys: [{ key: "k", credits: 500 }],
  });
  try {
    const c = capture(source.url);
    const post = (path: string, body: unknown) => c.call("POST", path, { body, key: "k" });
    await post("/search", { query: "alpha" });
    await post("/search", [{ query: "one" }, { query: "__fail_502__" }]);
    await post("/crawl", { url: "https://example.com/x/status/404" });
    await post("/screenshot", { url: "https://example.com/" });
    const started = await post("/deepcrawl", { url: "https://a.example/" });
    const { taskId } = JSON.parse(String(started.response?.body));
    await c.call("GET", `/deepcrawl/status/${taskId}`, { key: "k" });
    source.admin.advanceClock(10_000);
    const done = await c.call("GET", `/deepcrawl/status/${taskId}`, { key: "k" });
    const zip = new URL(JSON.parse(String(done.response?.body)).zipUrl);
    await c.call("GET", `${zip.pathname}${zip.search}`);
    har = harOf(c.exchanges);
  } finally {
    await source.close();
  }
});

describe("replay in-process (MSW) and over a socket", () => {
  let server: RunningMock;
  let msw: MockHandlers;
  const intercept = setupServer();
  const options = () => ({
    contract,
    seed: 77,
    clock: "manual" as const,
    startTime: START,
    rateLimits: { perAccount: 0 },
    keys: [
      { key: "k", credits: 500 },
      { key: "broke", credits: 0 },
    ],
    replay: har,
  });
  beforeAll(async () => {
    server = await startMock({ ...options(), port: 0 });
    msw = await createMockHandlers(options());
    intercept.use(...msw.handlers);
    intercept.listen({ onUnhandledRequest: "bypass" });
  });
  afterAll(async () => {
    intercept.close();
    await server?.close();
    await msw?.close();
  });

  it("give the client identical answers: replayed ones, and the mock's own 402, 422 and balance", async () => {
    const overSocket = await session(server.url);
    const inProcess = await session(msw.baseUrl);
    const without402 = (s: Seen[]) => s.map((x) => (x.status === 402 ? { ...x, body: "(challenge)" } : x));
    expect(without402(inProcess)).toEqual(without402(overSocket));
    expect(overSocket.map((s) => [s.name, s.status])).toEqual([
      ["search", 200],
      ["batch", 200],
      ["crawl 404", 404],
      ["screenshot", 200],
      ["deepcrawl", 202],
      ["poll 0", 200],
      ["poll 1", 200],
      ["poll 2", 200],
      ["poll 3", 200],
      ["zip", 200],
      ["402", 402],
      ["422", 422],
      ["usage", 200],
    ]);
    const statuses = overSocket.filter((s) => s.name.startsWith("poll")).map((s) => JSON.parse(s.body).status);
    expect(statuses).toEqual(["queued", "completed", "completed", "completed"]);
    // search 1 + batch 1 + crawl 404 1 + screenshot 2 + deepcrawl 20, at the contract's prices
    const charged = ["search", "search", "crawl", "screenshot", "deepcrawl"].reduce(
      (sum, op) => sum + contract.prices.requestCredits(op, {}),
      0,
    );
    expect(JSON.parse(overSocket.at(-1)?.body ?? "{}").usage).toBe(500 - charged);
    for (const m of [server.admin, msw.admin]) expect(m.journal.list().filter((e) => e.replayedFrom).length).toBe(10);
  });
});
