// The sequence rules on hand-made traffic: the balance between two reads by the same credential (charged once,
// twice, not at all, and each ambiguity skipped and counted instead of reported), and a task's zip across downloads.
import { strToU8, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { Contract } from "../../contract.ts";
import { loadContract } from "../../index.ts";
import { createContext } from "../context.ts";
import type { Exchange } from "../types.ts";
import { type BalanceTracker, chargeOf, createBalanceTracker, judgeBalance } from "./balance.ts";
import { completedPackage, createZipLayoutTracker, createZipTracker } from "./deepcrawl-zip.ts";

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

const json = { "content-type": "application/json" };
function ex(
  method: string,
  path: string,
  sent: unknown,
  status: number | null,
  answer?: unknown,
  o: { key?: string; concurrent?: boolean } = {},
): Exchange {
  return {
    request: {
      method,
      path,
      headers: { authorization: `Bearer ${o.key ?? "k1"}`, ...(sent === undefined ? {} : json) },
      body: sent === undefined ? "" : JSON.stringify(sent),
    },
    concurrent: "concurrent" in o ? o.concurrent : false,
    ...(status === null
      ? {}
      : { response: { status, headers: json, body: answer === undefined ? "" : JSON.stringify(answer) } }),
  };
}
const usage = (n: number, o: { key?: string; concurrent?: boolean } = {}) =>
  ex("GET", "/usage", undefined, 200, { usage: n, credential_type: "api_key" }, o);
const search = (status = 200, o: { key?: string } = {}) =>
  ex("POST", "/search", { query: "q" }, status, status === 200 ? { results: [] } : { ok: false }, o);

function run(tracker: BalanceTracker, exchanges: Exchange[]) {
  return exchanges.flatMap((e) => tracker.observe(createContext(contract, e)));
}

describe("what one exchange costs (chargeOf)", () => {
  it("a success its price, a refusal nothing, a batch its successful entries, a crawl 404 its price", () => {
    const charge = (e: Exchange) => chargeOf(contract, createContext(contract, e));
    const price = contract.prices.entryCredits("search", { query: "q" });
    expect(charge(search())).toEqual({ credits: price });
    expect(charge(search(422))).toEqual({ credits: 0 });
    expect(charge(search(402))).toEqual({ credits: 0 });
    const batch = ex("POST", "/search", [{ query: "a" }, { query: "b" }], 200, {
      results: [{ success: true }, { success: false }],
    });
    expect(charge(batch)).toEqual({ credits: price });
    const crawlPrice = contract.prices.entryCredits("crawl", { url: "https://example.com/" });
    expect(charge(ex("POST", "/crawl", { url: "https://example.com/" }, 404, { ok: false }))).toEqual({
      credits: crawlPrice,
    });
    expect(charge(ex("GET", "/health", undefined, 200, { status: "ok" }))).toEqual({ credits: 0 });
    expect(charge(ex("POST", "/search", { query: "q" }, null))).toHaveProperty("unknown");
    expect(charge(ex("POST", "/mcp", { jsonrpc: "2.0" }, 200, {}))).toHaveProperty("unknown");
  });
});

describe("the balance between two reads (balance-charged)", () => {
  it("passes a drop of exactly the calls' price, reports one charged twice or not at all", () => {
    const price = contract.prices.entryCredits("search", { query: "q" });
    const t = createBalanceTracker(contract);
    expect(run(t, [usage(100), search(), search(422), usage(100 - price)])).toEqual([]);
    const twice = run(t, [search(), usage(100 - 3 * price)]);
    expect(twice.map((v) => [v.rule, v.expected, v.actual])).toEqual([
      ["balance-charged", `a drop of ${price}`, `a drop of ${2 * price}`],
    ]);
    expect(twice[0].message).toMatch(/^charged twice: the balance went from 99/);
    const never = run(t, [search(), usage(100 - 3 * price)]);
    expect(never.map((v) => v.message.split(":")[0])).toEqual(["not charged"]);
    const refusedCharged = run(t, [search(422), usage(100 - 4 * price)]);
    expect(refusedCharged.map((v) => v.actual)).toEqual([`a drop of ${price}`]);
    expect(t.judged()).toBe(4);
    expect(t.skipped()).toEqual({});
  });

  it("skips and counts a read that overlapped a call, a call with no answer, another credential's paid call", () => {
    const t = createBalanceTracker(contract);
    const out = run(t, [
      usage(100),
      search(),
      usage(90, { concurrent: true }), // overlapped: its window is not judged, nor the next
      usage(90),
      ex("POST", "/search", { query: "q" }, null),
      usage(80),
      search(200, { key: "k2" }),
      usage(70),
      ex("POST", "/mcp", { jsonrpc: "2.0" }, 200, {}),
      usage(60),
      usage(60, { concurrent: undefined }),
    ]);
    expect(out).toEqual([]);
    expect(t.judged()).toBe(0);
    expect(t.skipped()).toEqual({
      "a balance read overlapped another request of the credential": 1,
      "search got no answer (it may have been charged)": 1,
      "another credential's paid call in between (it may be the same account)": 1,
      "a call the contract does not price": 1,
      "the judge does not know whether requests overlapped": 1,
    });
  });

  it("skips a drop short by a deepcrawl task that may have been refunded, reports one the refunds cannot explain", () => {
    const price = contract.prices.entryCredits("deepcrawl", { url: "https://example.com/" });
    const accepted = ex("POST", "/deepcrawl", { url: "https://example.com/" }, 202, {
      taskId: "dc_1",
      status: "queued",
    });
    const t = createBalanceTracker(contract);
    expect(run(t, [usage(100), accepted, usage(100)])).toEqual([]);
    expect(t.skipped()).toEqual({ "a deepcrawl task may have been refunded in between": 1 });
    // once the task is seen completed it can no longer be refunded
    const done = ex("GET", "/deepcrawl/status/dc_1", undefined, 200, {
      taskId: "dc_1",
      status: "completed",
      zipUrl: "https://x/deepcrawl/files/dc_1.zip",
    });
    expect(run(t, [done, usage(100), accepted, usage(100)]).map((v) => v.rule)).toEqual([]);
    expect(
      run(t, [
        { ...accepted, response: { ...accepted.response, body: JSON.stringify({ taskId: "dc_2" }) } } as Exchange,
        usage(100 + 2 * price), // dc_1 (accepted again) and dc_2 refunded would make 100 + price at most
      ]).map((v) => v.message.split(":")[0]),
    ).toEqual(["charged less than the calls cost"]);
  });

  it("judgeBalance names the calls and the reads", () => {
    const v = judgeBalance({
      before: { usage: 10, label: "GET /usage #1" },
      after: { usage: 7, label: "GET /usage #3" },
      expected: 1,
      calls: 1,
      shown: ["POST /crawl #2 (1)"],
      refundable: 0,
    }).violations;
    expect(v).toEqual([
      {
        rule: "balance-charged",
        message:
          "charged more than the calls cost: the balance went from 10 (GET /usage #1) to 7 (GET /usage #3), a drop of 3, across 1 call: POST /crawl #2 (1)",
        expected: "a drop of 1",
        actual: "a drop of 3",
      },
    ]);
  });
});

describe("a task's zip across downloads (deepcrawl-zip-stays)", () => {
  const zip = (bytes: string, query = "?sig=1"): Exchange => ({
    request: { method: "GET", path: `/deepcrawl/files/dc_1.zip${query}`, headers: {} },
    response: { status: 200, headers: { "content-type": "application/zip" }, body: Buffer.from(bytes) },
  });
  it("the same bytes pass whatever the link's signature; other bytes are reported", () => {
    const t = createZipTracker();
    const see = (e: Exchange) => t.observe(createContext(contract, e));
    expect(see(zip("PK one"))).toEqual([]);
    expect(see(zip("PK one", "?sig=2"))).toEqual([]);
    expect(see(zip("PK two")).map((v) => v.rule)).toEqual(["deepcrawl-zip-stays"]);
  });
});

describe("a completed task names its package (deepcrawl-completed-package)", () => {
  const status = (body: unknown): Exchange => ({
    request: { method: "GET", path: "/deepcrawl/status/dc_1", headers: {} },
    response: { status: 200, headers: json, body: JSON.stringify(body) },
  });
  const check = (body: unknown) => completedPackage.check(createContext(contract, status(body)));
  it("r2Key and an http(s) zipUrl on completed; nothing asked of an unfinished task", () => {
    expect(
      check({ taskId: "dc_1", status: "completed", r2Key: "k", zipUrl: "https://x/deepcrawl/files/a.zip" }),
    ).toEqual([]);
    expect(check({ taskId: "dc_1", status: "processing" })).toEqual([]);
    expect(check({ taskId: "dc_1", status: "completed", zipUrl: null }).map((v) => v.message)).toEqual([
      "a completed task without r2Key",
      "a completed task without a zipUrl",
    ]);
  });
});

describe("a task's zip laid out for the request that started it (deepcrawl-zip-layout)", () => {
  const doc = (frontMatter: boolean) =>
    `${frontMatter ? "---\nurl: https://example.com/a\ntitle: A\nfetched_at: 2026-11-28T09:00:00Z\n---\n\n" : ""}# A\n`;
  const zip = (frontMatter: boolean, url = "https://example.com/") => {
    const page = strToU8(doc(frontMatter));
    const manifest = {
      taskId: "dc_1",
      url,
      type: "sitemap",
      createdAt: "2026-11-28T09:00:00Z",
      completedAt: "2026-11-28T09:00:01Z",
      limitReached: null,
      pages: [{ url: "https://example.com/a", path: "pages/a.md", title: "A", status: 200, bytes: page.length }],
    };
    return Buffer.from(zipSync({ "manifest.json": strToU8(JSON.stringify(manifest)), "pages/a.md": page }));
  };
  const flow = (body: Buffer): Exchange[] => [
    {
      request: {
        method: "POST",
        path: "/deepcrawl",
        headers: json,
        body: JSON.stringify({ url: "https://example.com/" }),
      },
      response: { status: 202, headers: json, body: JSON.stringify({ taskId: "dc_1", status: "queued" }) },
    },
    {
      request: { method: "GET", path: "/deepcrawl/status/dc_1", headers: {} },
      response: {
        status: 200,
        headers: json,
        body: JSON.stringify({
          taskId: "dc_1",
          status: "completed",
          r2Key: "k",
          zipUrl: "http://x/deepcrawl/files/dc_1.zip?s=1",
        }),
      },
    },
    {
      request: { method: "GET", path: "/deepcrawl/files/dc_1.zip?s=1", headers: {} },
      response: { status: 200, headers: { "content-type": "application/zip" }, body },
    },
  ];
  const judge = (body: Buffer) => {
    const t = createZipLayoutTracker(contract);
    return flow(body).flatMap((e) => t.observe(createContext(contract, e)));
  };
  it("passes the decided layout, reports documents without front matter and a manifest of another request", () => {
    expect(judge(zip(true))).toEqual([]);
    expect(judge(zip(false)).map((v) => v.message)).toEqual([
      "pages/a.md: it does not start with YAML front matter (---)",
    ]);
    expect(judge(zip(true, "https://example.org/another")).map((v) => [v.message, v.expected])).toEqual([
      ["manifest url is not the requested url", "https://example.com/"],
    ]);
  });
});
