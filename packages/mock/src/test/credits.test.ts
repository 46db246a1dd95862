// Credits through HTTP (interface-spec "What the service does", "Limits" 3; D-charging): every price comes from
// the spec's price table, never from a number typed here.

import { baseBody } from "@plumbline-kit/contract/bounds";
import { describe, expect, it } from "vitest";
import { BROKE, useMock } from "./harness.ts";

const h = useMock();

// a valid body per operation: the document's own request examples
const valid = (operationId: string) => baseBody(h.contract.operation(operationId));

async function fund(credits: number): Promise<string> {
  const r = await h.admin("POST", "/accounts", { credits });
  return (r.body as { key: string }).key;
}

describe("credits", () => {
  it("charges each paid operation exactly its price from the spec", async () => {
    for (const op of h.contract.contractOperations.filter((o) => o.pricing)) {
      const before = await h.balance();
      const r = await h.post(op.path, valid(op.operationId));
      expect(r.status, op.operationId).toBe(op.operationId === "deepcrawl" ? 202 : 200);
      expect(before - (await h.balance()), op.operationId).toBe(op.pricing?.credits);
    }
  });

  it("adds one crawl per crawl_results and charges batches per entry", async () => {
    const crawl = h.contract.prices.get("crawl")?.credits ?? 0;
    const search = h.contract.prices.get("search")?.credits ?? 0;
    let before = await h.balance();
    await h.post("/search", { query: "q", crawl_results: 3 });
    expect(before - (await h.balance())).toBe(search + 3 * crawl);
    before = await h.balance();
    const r = await h.post("/news", [{ query: "a" }, { query: "b", crawl_results: 2 }, { query: "c" }]);
    const body = r.body as { results: Array<{ cost: number }>; summary: { totalCost: number } };
    expect(body.results.map((e) => e.cost)).toEqual([search, search + 2 * crawl, search]);
    expect(body.summary.totalCost).toBe(3 * search + 2 * crawl);
    expect(before - (await h.balance())).toBe(body.summary.totalCost);
  });

  it("charges nothing for failed entries and computes the summary from the entries", async () => {
    const before = await h.balance();
    const r = await h.post("/search", [{ query: "a" }, { query: "__fail_502__" }, { query: "c" }]);
    expect(r.status).toBe(200);
    const body = r.body as {
      results: Array<{ success: boolean; cost: number; error?: { statusCode: number } }>;
      summary: object;
    };
    expect(body.results.map((e) => e.success)).toEqual([true, false, true]);
    expect(body.results[1]).toMatchObject({ cost: 0, error: { statusCode: 502 } });
    expect(body.summary).toEqual({ total: 3, successful: 2, failed: 1, totalCost: 2 });
    expect(before - (await h.balance())).toBe(2);
  });

  it("charges a crawl the target answered 404 or 410, and not one that failed upstream", async () => {
    let before = await h.balance();
    expect((await h.post("/crawl", { url: "https://example.com/status/404" })).status).toBe(404);
    expect((await h.post("/crawl", { url: "https://example.com/status/410" })).status).toBe(410);
    expect(before - (await h.balance())).toBe(2 * (h.contract.prices.get("crawl")?.credits ?? 0));
    before = await h.balance();
    expect((await h.post("/crawl", { url: "https://example.com/status/502" })).status).toBe(502);
    expect((await h.post("/extract", { url: "https://example.com/status/500" })).status).toBe(502);
    expect(await h.balance()).toBe(before);
  });

  it("answers a call the balance cannot cover with 402 problem+json and the payment challenge", async () => {
    const r = await h.post("/extract", valid("extract"), BROKE);
    expect(r.status).toBe(402);
    expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    expect(r.headers.get("www-authenticate")).toMatch(/^Payment id=/);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toMatchObject({
      code: "PLB_INSUFFICIENT_CREDITS",
      status: 402,
      detail: "This call costs 10 credits; the balance is 0",
    });
  });

  it("fails the remaining batch entries with 402 and cost 0 when the balance runs out midway", async () => {
    const key = await fund(2);
    const r = await h.post("/search", [{ query: "a" }, { query: "b" }, { query: "c" }, { query: "d" }], key);
    expect(r.status).toBe(200);
    const body = r.body as {
      results: Array<{ success: boolean; cost: number; error?: { statusCode: number } }>;
      summary: object;
    };
    expect(body.results.map((e) => [e.success, e.cost, e.error?.statusCode])).toEqual([
      [true, 1, undefined],
      [true, 1, undefined],
      [false, 0, 402],
      [false, 0, 402],
    ]);
    expect(body.summary).toEqual({ total: 4, successful: 2, failed: 2, totalCost: 2 });
    expect(await h.balance(key)).toBe(0);
  });

  it("keeps status polling, usage and health free", async () => {
    const started = await h.post("/deepcrawl", valid("deepcrawl"));
    const { taskId } = started.body as { taskId: string };
    const before = await h.balance();
    for (let i = 0; i < 5; i++) {
      await h.get(`/deepcrawl/status/${taskId}`);
      await h.get("/usage");
      await h.get("/health");
    }
    expect(await h.balance()).toBe(before);
  });

  it("never overdraws under concurrent calls", async () => {
    const key = await fund(25);
    const results = await Promise.all(Array.from({ length: 40 }, () => h.post("/search", { query: "race" }, key)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 402)).toHaveLength(15);
    expect(await h.balance(key)).toBe(0);
  });

  it("bills a new task for every deepcrawl start (no idempotency key)", async () => {
    const before = await h.balance();
    const a = await h.post("/deepcrawl", valid("deepcrawl"));
    const b = await h.post("/deepcrawl", valid("deepcrawl"));
    expect((a.body as { taskId: string }).taskId).not.toBe((b.body as { taskId: string }).taskId);
    expect(before - (await h.balance())).toBe(2 * (h.contract.prices.get("deepcrawl")?.credits ?? 0));
  });
});
