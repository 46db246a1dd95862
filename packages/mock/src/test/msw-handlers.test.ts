// The mock as MSW handlers (issue 18): every answer validates against the spec with the same check the server
// mock's tests use (violationsOf), URLs the mock hands out are on the chosen base and intercepted too, steering
// and faults behave as over a socket, and several instances in one process keep separate state.

import { loadContract } from "@plumbline-kit/contract";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHandlers, DEFAULT_MSW_BASE_URL, type MockHandlers } from "../msw/index.ts";
import { type Exchange, violationsOf } from "./harness.ts";

const contract = await loadContract();
const KEY = "msw-key";
const json = (body: unknown, key: string | null = KEY, extra: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra },
  body: JSON.stringify(body),
});

describe("createMockHandlers", () => {
  let a: MockHandlers;
  let b: MockHandlers;
  const server = setupServer();
  const violations: string[] = [];
  let answered = 0;

  beforeAll(async () => {
    a = await createMockHandlers({ contract, keys: [{ key: KEY, credits: 100 }], clock: "manual" });
    b = await createMockHandlers({
      contract,
      keys: [{ key: KEY, credits: 5 }],
      baseUrl: "http://second.mock.test:8080/",
      rateLimits: { perAccount: 3 },
    });
    server.use(...a.handlers, ...b.handlers);
    server.listen({ onUnhandledRequest: "error" });
    // every answer either instance gives, checked against the spec as the server mock's own tests check theirs
    server.events.on("response:mocked", async ({ request, response }) => {
      answered++;
      const raw = Buffer.from(await response.clone().arrayBuffer());
      const isJson = response.headers.get("content-type")?.includes("json");
      const ex: Exchange = {
        status: response.status,
        headers: response.headers,
        body: isJson ? JSON.parse(raw.toString("utf8")) : raw,
        raw,
      };
      const url = new URL(request.url);
      violations.push(...violationsOf(contract, request.method, url.pathname + url.search, ex));
    });
  });
  afterAll(async () => {
    server.close();
    await a.close();
    await b.close();
    expect(answered).toBeGreaterThan(20);
    expect(violations).toEqual([]);
  });

  it("answers on the default base URL, with the contract's headers", async () => {
    expect(a.baseUrl).toBe(DEFAULT_MSW_BASE_URL);
    const res = await fetch(`${a.baseUrl}/search`, json({ query: "msw" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/\S+/);
    expect(res.headers.get("link")).toContain('rel="service-desc"');
    const body = (await res.json()) as { searchParameters: unknown; results: unknown[] };
    expect(body.searchParameters).toMatchObject({ query: "msw", max_results: 5, crawl_results: 0 }); // D-echo
    expect(body.results.length).toBe(5);
  });

  it("validates, authenticates and charges as the server mock does", async () => {
    expect((await fetch(`${a.baseUrl}/search`, json({ query: "" }))).status).toBe(422);
    const malformed = await fetch(`${a.baseUrl}/crawl`, { ...json({}), body: "{not json" });
    expect(malformed.status).toBe(400);
    const unpaid = await fetch(`${a.baseUrl}/crawl`, json({ url: "https://example.com/" }, null));
    expect(unpaid.status).toBe(402);
    expect(unpaid.headers.get("content-type")).toContain("application/problem+json");
    expect(unpaid.headers.get("www-authenticate")).toContain(`resource_metadata="${a.baseUrl}/.well-known/`);
    expect((await fetch(`${a.baseUrl}/usage`, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    expect((await fetch(`${a.baseUrl}/health`)).status).toBe(200);
    expect(
      (await fetch(`${a.baseUrl}/deepcrawl/status/dc_unknown`, { headers: { authorization: `Bearer ${KEY}` } })).status,
    ).toBe(404);
    const shot = await fetch(`${a.baseUrl}/screenshot`, json({ url: "https://example.com/", format: "webp" }));
    expect(shot.headers.get("content-type")).toBe("image/webp");
    expect((await shot.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it("keeps each instance's accounts apart", async () => {
    const usage = async (m: MockHandlers) =>
      (
        (await (await fetch(`${m.baseUrl}/usage`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as {
          usage: number;
        }
      ).usage;
    const before = await usage(b);
    await fetch(`${a.baseUrl}/crawl`, json({ url: "https://example.com/a" }));
    expect(await usage(b)).toBe(before);
    a.admin.setBalance(KEY, 42);
    expect(await usage(a)).toBe(42);
    expect(await usage(b)).toBe(before);
  });

  it("hands out deepcrawl zip URLs on its base, and serves them in-process", async () => {
    a.admin.setBalance(KEY, 100);
    const started = await fetch(`${a.baseUrl}/deepcrawl`, json({ url: "https://docs.example.com/" }));
    expect(started.status).toBe(202);
    const { taskId } = (await started.json()) as { taskId: string };
    a.admin.advanceClock(60_000);
    const status = (await (
      await fetch(`${a.baseUrl}/deepcrawl/status/${taskId}`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as { status: string; zipUrl: string };
    expect(status.status).toBe("completed");
    expect(status.zipUrl.startsWith(`${a.baseUrl}/`)).toBe(true);
    const zip = Buffer.from(await (await fetch(status.zipUrl)).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe("PK");
  });

  it("is steered by Prefer and fault rules, and drops the connection on a reset", async () => {
    const steered = await fetch(`${a.baseUrl}/search`, json({ query: "x" }, KEY, { prefer: "code=502" }));
    expect(steered.status).toBe(502);
    await expect(fetch(`${a.baseUrl}/search`, json({ query: "x" }, KEY, { prefer: "fault=reset" }))).rejects.toThrow();
    a.admin.faults.add({ operationId: "search", status: 500, times: 1 });
    expect((await fetch(`${a.baseUrl}/search`, json({ query: "y" }))).status).toBe(500);
    expect((await fetch(`${a.baseUrl}/search`, json({ query: "y" }))).status).toBe(200);
    const journal = a.admin.journal.list();
    expect(journal.some((e) => e.operationId === "search" && e.status === 502)).toBe(true);
  });

  it("rate-limits per account with Retry-After, on an instance configured so", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${b.baseUrl}/usage`, { headers: { authorization: `Bearer ${KEY}` } });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
