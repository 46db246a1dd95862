// What the service's own clients rely on (issue 26), held against the mock over a socket, the same mock as MSW
// handlers in-process, and the reference. Written here from what those clients were seen to do, not taken from
// them: the official TypeScript client (@search1api/client 0.2.1) ends its deepcrawl polling at the first
// `success` it reads and types the echo's defaulted fields as present; its engine list has values the interface's
// list lacks; the service's MCP server (search1api-mcp 0.5.3) rejects a trending description that is null; both
// show their user only the top-level message of an error. Decisions: D-deepcrawl-success, D-search-engine-values,
// D-echo, D-trending-description, D-validation-message.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../packages/contract/src/index.ts";
import { createMockHandlers, type MockHandlers } from "../packages/mock/src/msw/index.ts";
import { type RunningMock, startMock } from "../packages/mock/src/start-mock.ts";
import { type RunningReference, startReference } from "../packages/reference/src/start-reference.ts";
import { startTestSite, type TestSite } from "./deepcrawl-site.ts";
import { startUpstreamStandIns, type UpstreamStandIns } from "./upstream-stand-ins.ts";

const KEY = "client-reliance-key";
const contract = await loadContract();

/** The search engine values of the official client's engine list, and `yandex` of a later service revision. */
const CLIENT_SEARCH_ENGINES = [
  "google",
  "bing",
  "duckduckgo",
  "yahoo",
  "youtube",
  "x",
  "reddit",
  "github",
  "arxiv",
  "wechat",
  "bilibili",
  "imdb",
  "wikipedia",
  "sogou",
  "baidu",
  "360",
  "quark",
  "yandex",
];
const CLIENT_NEWS_ENGINES = ["google", "bing", "duckduckgo", "yahoo", "hackernews", "reuters"];
/** The echo members the client types as always present (it never checks them at run time). */
const TYPED_PRESENT: Record<string, "number" | "boolean" | "array"> = {
  max_results: "number",
  crawl_results: "number",
  image: "boolean",
  include_sites: "array",
  exclude_sites: "array",
};

interface Target {
  url: string;
  /** a URL the target can deepcrawl */
  site: string;
}

async function call(t: Target, method: "GET" | "POST", path: string, body?: unknown, prefer?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (prefer) headers.prefer = prefer;
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/**
 * A client's polling loop as the official one reads a status answer: finished at `success === true` or
 * `completed`, failed at the first `success === false`, `failed` or `not_found`; every answer is kept.
 */
async function pollLikeTheClient(t: Target, taskId: string, timeoutMs = 30_000) {
  const seen: Array<Record<string, unknown>> = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const r = await call(t, "GET", `/deepcrawl/status/${taskId}`);
    seen.push(r.body);
    if (r.body.success === true || r.body.status === "completed") return { outcome: "completed" as const, seen };
    if (r.body.success === false || r.body.status === "failed" || r.body.status === "not_found")
      return { outcome: "failed" as const, seen };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { outcome: "timed out" as const, seen };
}

function reliedOn(target: () => Target, options: { trendingNullInMaxMode: boolean }) {
  it("completes a deepcrawl for a polling loop that stops at the first success === false", async () => {
    const t = target();
    const started = await call(t, "POST", "/deepcrawl", { url: t.site });
    expect(started.status).toBe(202);
    const { outcome, seen } = await pollLikeTheClient(t, started.body.taskId as string);
    expect(outcome, JSON.stringify(seen)).toBe("completed");
    // the loop met the task unfinished at least once, so the test says something about those answers
    expect(seen.some((s) => s.status !== "completed")).toBe(true);
    for (const s of seen.filter((x) => x.status !== "completed")) expect(s).not.toHaveProperty("success");
    expect(seen[seen.length - 1]).toMatchObject({ status: "completed", success: true, zipUrl: expect.any(String) });
  });

  it("accepts every engine value of the client's list, singly and in one batch", async () => {
    const t = target();
    for (const [path, engines] of [
      ["/search", CLIENT_SEARCH_ENGINES],
      ["/news", CLIENT_NEWS_ENGINES],
    ] as const) {
      const refused = [];
      for (const search_service of engines) {
        const r = await call(t, "POST", path, { query: "plumbline", search_service, max_results: 1 });
        if (r.status !== 200) refused.push(`${search_service}: ${r.status} ${String(r.body.message)}`);
      }
      expect(refused, path).toEqual([]);
      const batch = await call(
        t,
        "POST",
        path,
        engines.map((search_service) => ({ query: "plumbline", search_service, max_results: 1 })),
      );
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      expect((batch.body.summary as { total: number }).total).toBe(engines.length);
    }
  });

  it("echoes every field the client types as present, at its effective value", async () => {
    const t = target();
    const echoes: Array<Record<string, unknown>> = [];
    for (const path of ["/search", "/news"]) {
      const single = await call(t, "POST", path, { query: "plumbline echo", max_results: 3 });
      expect(single.status).toBe(200);
      echoes.push(single.body.searchParameters as Record<string, unknown>);
      const batch = await call(t, "POST", path, [{ query: "plumbline echo" }]);
      const [entry] = batch.body.results as Array<{ data: { searchParameters: Record<string, unknown> } }>;
      echoes.push(entry.data.searchParameters);
    }
    for (const echo of echoes) {
      expect(echo.query).toBe("plumbline echo");
      for (const [field, type] of Object.entries(TYPED_PRESENT)) {
        const v = echo[field];
        expect(type === "array" ? Array.isArray(v) : typeof v === type, `${field} in ${JSON.stringify(echo)}`).toBe(
          true,
        );
      }
    }
    // the value sent, else the schema's default
    expect(echoes[0]).toMatchObject({ max_results: 3, crawl_results: 0, image: false, include_sites: [] });
    expect(echoes[1]).toMatchObject({ max_results: 5, exclude_sites: [] });
  });

  it("answers a trending result without a description by leaving the field out, never null", async () => {
    const t = target();
    for (const search_service of ["hackernews", "github"]) {
      const r = await call(t, "POST", "/trending", { search_service, max_results: 50 });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const results = r.body.results as Array<Record<string, unknown>>;
      expect(results.length).toBeGreaterThan(0);
      expect(results.filter((x) => x.description === null)).toEqual([]);
      if (search_service === "hackernews") expect(results.some((x) => !("description" in x))).toBe(true);
    }
    if (options.trendingNullInMaxMode) {
      // the contract-edge mode keeps null: a client's tolerance of every legal value is what it tests
      const max = await call(
        t,
        "POST",
        "/trending",
        { search_service: "hackernews", max_results: 50 },
        "variability=max",
      );
      expect((max.body.results as Array<{ description?: unknown }>).some((x) => x.description === null)).toBe(true);
    }
  });

  it("names the first violation and the count of the rest in a 422's message", async () => {
    const t = target();
    const r = await call(t, "POST", "/search", { query: "plumbline", max_results: 51, crawl_results: 51 });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("max_results must be ≤ 50 (and 1 more)");
    expect((r.body.errors as unknown[]).length).toBe(2);
  });
}

describe("the mock over a socket", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({
      port: 0,
      contract,
      keys: [{ key: KEY, credits: 100_000 }],
      deepcrawlSteps: { queuedMs: 150, waitingMs: 150, processingMs: 300 },
    });
  });
  afterAll(async () => {
    await mock?.close();
  });
  reliedOn(() => ({ url: mock.url, site: "https://example.com/" }), { trendingNullInMaxMode: true });
});

describe("the mock as MSW handlers", () => {
  let handlers: MockHandlers;
  const server = setupServer();
  beforeAll(async () => {
    handlers = await createMockHandlers({
      contract,
      baseUrl: "https://client-reliance.plumbline.test",
      keys: [{ key: KEY, credits: 100_000 }],
      deepcrawlSteps: { queuedMs: 150, waitingMs: 150, processingMs: 300 },
    });
    server.use(...handlers.handlers);
    server.listen({ onUnhandledRequest: "error" });
  });
  afterAll(async () => {
    server.close();
    await handlers?.close();
  });
  reliedOn(() => ({ url: handlers.baseUrl, site: "https://example.com/" }), { trendingNullInMaxMode: true });
});

describe("the reference", () => {
  let ref: RunningReference;
  let site: TestSite;
  let upstream: UpstreamStandIns;
  const dir = mkdtempSync(join(tmpdir(), "plumbline-client-reliance-"));
  beforeAll(async () => {
    site = await startTestSite({ pages: 6 });
    // GitHub trending and the Hacker News API answering their recorded responses on 127.0.0.1
    upstream = await startUpstreamStandIns();
    ref = await startReference({
      port: 0,
      dataDir: dir,
      contract,
      keys: [{ key: KEY, credits: 100_000 }],
      allowPrivateNetwork: true,
      trending: { githubUrl: upstream.url, hackernewsUrl: upstream.url },
      // the worker looks for queued tasks every 300 ms: the first poll meets the task unfinished
      deepcrawlSettings: { hostDelayMs: 0, pollMs: 300 },
    });
  });
  afterAll(async () => {
    await ref?.close();
    await site?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  reliedOn(() => ({ url: ref.url, site: `${site.url}/` }), { trendingNullInMaxMode: false });
});
