// The balance across paid calls, judged by the proxy on real traffic (balance-charged): sequential reads around a
// paid call are judged, reads that overlap a paid call of the same credential are skipped and counted (their order
// is unknown), another credential's calls meanwhile do not make a window ambiguous unless they are paid.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProxyReport } from "../report/violation-report.ts";
import { type RunningProxy, startProxy } from "../start-proxy.ts";

let mock: RunningMock;
let proxy: RunningProxy;
let gate: Server;
/** a request marked `x-hold` waits at the gate until released: two requests in flight together, by construction */
let held: { arrived: Promise<void>; release: () => void };
function hold() {
  let arrive = () => {};
  let release = () => {};
  const arrived = new Promise<void>((r) => {
    arrive = r;
  });
  const released = new Promise<void>((r) => {
    release = r;
  });
  held = { arrived, release };
  return { arrive, released };
}
let holding = hold();

beforeAll(async () => {
  const contract = await loadContract();
  mock = await startMock({
    port: 0,
    contract,
    keys: [
      { key: "KEY-A", credits: 1000 },
      { key: "KEY-B", credits: 1000 },
    ],
    rateLimits: { perAccount: 0 },
  });
  // the gate forwards to the mock, holding a request marked x-hold until the test releases it
  gate = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (req.headers["x-hold"]) {
        holding.arrive();
        await holding.released;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${mock.url}${req.url}`, { method: req.method, headers, body });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) out[k] = v;
      });
      res.writeHead(answer.status, out).end(bytes);
    });
  });
  await new Promise<void>((r) => gate.listen(0, "127.0.0.1", r));
  const upstream = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
  proxy = await startProxy({ upstream, port: 0, reportDir: null, contract });
});
afterAll(async () => {
  await proxy?.close();
  gate?.closeAllConnections();
  await new Promise<void>((r) => (gate ? gate.close(() => r()) : r()));
  await mock?.close();
});

const call = (key: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
  fetch(`${proxy.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...extra,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.text() }));
const usage = (key: string) => call(key, "GET", "/usage");
const search = (key: string) => call(key, "POST", "/search", { query: "balance" });
const balanceViolations = (r: ProxyReport) =>
  r.operations.flatMap((op) => op.rules.filter((g) => g.rule === "balance-charged"));

describe("balance-charged through the proxy", () => {
  it("judges sequential reads around paid calls, and finds the mock charging each once", async () => {
    await usage("KEY-A");
    await search("KEY-A");
    await call("KEY-A", "POST", "/search", { query: "x", max_results: 999 }); // refused: free
    await usage("KEY-A");
    await usage("KEY-B"); // another credential's free read in between changes nothing
    await search("KEY-A");
    await usage("KEY-A");
    const r = proxy.report();
    expect(balanceViolations(r)).toEqual([]);
    expect(r.totals.balanceWindows).toBe(2);
    expect(r.totals.balanceSkipped).toEqual({});
  });

  it("skips and counts reads that overlapped a paid call of the same credential", async () => {
    await usage("KEY-A");
    holding = hold();
    const read = call("KEY-A", "GET", "/usage", undefined, { "x-hold": "1" });
    await held.arrived; // the read is in flight at the proxy, held at the gate
    expect((await search("KEY-A")).status).toBe(200); // a paid call answered while the read is in flight
    held.release();
    expect((await read).status).toBe(200);
    await search("KEY-A");
    await usage("KEY-A");
    const r = proxy.report();
    expect(balanceViolations(r)).toEqual([]);
    expect(r.totals.balanceSkipped).toEqual({ "a balance read overlapped another request of the credential": 1 });
    // the window before the overlapped read was judged (no call in it); the one after it has no read to start from
    expect(r.totals.balanceWindows).toBe(3);
  });

  it("skips a window in which another credential made a paid call (it may be the same account)", async () => {
    await usage("KEY-A");
    await search("KEY-B");
    await usage("KEY-A");
    const r = proxy.report();
    expect(balanceViolations(r)).toEqual([]);
    expect(r.totals.balanceSkipped).toMatchObject({
      "another credential's paid call in between (it may be the same account)": 1,
    });
  });
});
