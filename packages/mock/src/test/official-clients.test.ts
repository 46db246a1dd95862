// What the service's own clients send and read (issue 39), made against the mock under both contract versions. Each
// request is built the way the client documents it (the TypeScript SDK @search1api/client that the AI SDK tools
// @search1api/ai-sdk 0.2.0 stand on, the Python SDK, the MCP server search1api-mcp), in plumbline's own words: the
// headers they send, the body fields they fill (nothing they leave out), and then only the fields of the answer they
// read. What they rely on when a call fails is asserted too: an error body whose `message` they show (401, 402 and
// 422, which they never retry; the 429 they retry after Retry-After is mcp-live.test.ts's and rate-limit.test.ts's).
// Every answer of the file is also validated against its version's document (the harness).
//
// - AI SDK search and news tools: POST /search and /news with the query trimmed, max_results 10 and crawl_results 0
//   by default and only the optional fields the model set; they hand the answer back unchanged (published_date too).
// - AI SDK crawl tool: POST /crawl with the URL only; it reads the page's title, link and content.
// - AI SDK ask tool, Python SDK ask, MCP server ask tool: POST /ask with `query` and nothing else; they read intent,
//   each result's title, link, snippet, source, relevance (published_date when present) and errors (none when
//   absent). Under the seed there is no /ask: 404.
// - the SDKs' other methods: sitemap, trending, extract, usage, health, screenshot (the format asked by Accept; bytes,
//   content type and request id read), deepcrawl (started once, then polled until success or completed).
// - Python SDK feedback: POST /feedback with the message and the optional intent, category, request_id and agent
//   {name, model}; it reads the report's id and status and never retries (no idempotency key). Seed: 404.
import { describe, expect, it } from "vitest";
import { BROKE, KEY, type MockHarness, useMock } from "./harness.ts";

// a deepcrawl finishes in a few polls: the SDKs' wait loop is what is exercised, not the task's pace
const steps = { queuedMs: 0, waitingMs: 0, processingMs: 50 };
const seed = useMock({ deepcrawlSteps: steps });
const live = useMock({ contractVersion: "live", deepcrawlSteps: steps });

/** The headers the TypeScript SDK sends on every call (the Python SDK's differ only in the client name). */
const TS_CLIENT = { accept: "application/json", "x-search1api-client": "typescript/0.2.0" };
const PY_CLIENT = { accept: "application/json", "x-search1api-client": "python/0.3.0" };

type Obj = Record<string, unknown>;
const obj = (v: unknown) => v as Obj;

/** What the AI SDK's search tool puts in the body when the model gives only a query (and what it set). */
const searchToolBody = (query: string, fromModel: Obj = {}) => ({
  query: query.trim(),
  max_results: 10,
  crawl_results: 0,
  ...fromModel,
});

/** The fields of a search or news result every client reads; published_date handed on when present. */
function expectReadableResults(body: unknown) {
  const results = obj(body).results as Obj[];
  expect(Array.isArray(results)).toBe(true);
  for (const r of results) {
    expect(typeof r.title).toBe("string");
    expect(typeof r.link).toBe("string");
    expect(typeof r.snippet).toBe("string");
    if ("published_date" in r) expect(r.published_date).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/);
  }
  return results;
}

/** An error answer as the clients surface it: JSON with a message to show, and their retry rule. */
function expectClientError(ex: { status: number; headers: Headers; body: unknown }, status: number) {
  expect(ex.status).toBe(status);
  expect(typeof obj(ex.body).message).toBe("string");
  if (status === 429 || status >= 500) expect(ex.headers.get("retry-after") ?? "").toMatch(/^\d+$/);
}

describe.each([
  ["seed", seed],
  ["live", live],
] as Array<[string, MockHarness]>)("the official clients against the mock under --contract %s", (version, h) => {
  it("AI SDK search tool: the default body and the model's fields; titles, links, snippets, dates read", async () => {
    const plain = await h.post("/search", searchToolBody("  AI SDK tool calling "), KEY, TS_CLIENT);
    expect(plain.status).toBe(200);
    expect(expectReadableResults(plain.body).length).toBeLessThanOrEqual(10);
    const scoped = await h.post(
      "/search",
      searchToolBody("AI SDK", {
        search_service: "github",
        include_sites: ["github.com"],
        exclude_sites: ["example.com"],
        time_range: "month",
        page: 2,
      }),
      KEY,
      TS_CLIENT,
    );
    expect(scoped.status).toBe(200);
    expectReadableResults(scoped.body);
    // the newer engine the SDK offers is accepted under both versions (D-search-engine-values)
    const yandex = await h.post("/search", searchToolBody("AI SDK", { search_service: "yandex" }), KEY, TS_CLIENT);
    expect(yandex.status).toBe(200);
  });

  it("AI SDK search tool: grokipedia, which it offers, is refused 422 naming the field (not retried)", async () => {
    const r = await h.post("/search", searchToolBody("AI SDK", { search_service: "grokipedia" }), KEY, TS_CLIENT);
    expectClientError(r, 422);
    expect(obj(r.body).message).toMatch(/search_service/);
  });

  it("AI SDK news tool: hackernews for the day; the discussion link and the article read", async () => {
    const r = await h.post(
      "/news",
      searchToolBody("release", { search_service: "hackernews", time_range: "day" }),
      KEY,
      TS_CLIENT,
    );
    expect(r.status).toBe(200);
    for (const item of expectReadableResults(r.body))
      if ("story_url" in item) expect(typeof item.story_url).toBe("string");
  });

  it("AI SDK crawl tool: the URL alone; the page's title, link and content read", async () => {
    const r = await h.post("/crawl", { url: "https://ai-sdk.dev/docs" }, KEY, TS_CLIENT);
    expect(r.status).toBe(200);
    const page = obj(obj(r.body).results);
    expect(typeof page.title).toBe("string");
    expect(typeof page.content).toBe("string");
    expect(page.link).toBe("https://ai-sdk.dev/docs");
  });

  it("the SDKs' other methods: sitemap, trending, extract, usage, health, a screenshot by its Accept", async () => {
    const sitemap = await h.post("/sitemap", { url: "https://ai-sdk.dev", type: "all" }, KEY, TS_CLIENT);
    expect(sitemap.status).toBe(200);
    expect(Array.isArray(obj(sitemap.body).links)).toBe(true);
    const trending = await h.post("/trending", { search_service: "github", max_results: 3 }, KEY, TS_CLIENT);
    expect(trending.status).toBe(200);
    for (const t of obj(trending.body).results as Obj[]) expect(typeof t.url).toBe("string");
    const extract = await h.post(
      "/extract",
      {
        url: "https://ai-sdk.dev/pricing",
        prompt: "the plan names",
        response_format: {
          type: "object",
          required: ["plans"],
          properties: { plans: { type: "array", items: { type: "string" } } },
        },
      },
      KEY,
      TS_CLIENT,
    );
    expect(extract.status).toBe(200);
    expect(Array.isArray(obj(obj(extract.body).results).plans)).toBe(true);
    const usage = await h.get("/usage?period=week", KEY, TS_CLIENT);
    expect(typeof obj(usage.body).usage).toBe("number");
    expect(obj((await h.get("/health", null, TS_CLIENT)).body).status).toBeDefined();
    // the screenshot method asks for the format by Accept and reads the bytes, their type and the request id
    const shot = await h.post("/screenshot", { url: "https://ai-sdk.dev", format: "jpeg" }, KEY, {
      ...TS_CLIENT,
      accept: "image/jpeg",
    });
    expect(shot.status).toBe(200);
    expect(shot.headers.get("content-type")).toBe("image/jpeg");
    expect(shot.headers.get("x-request-id")).toBeTruthy();
  });

  it("the SDKs' deepcrawl: start once, then poll until success is true or the status completed", async () => {
    const start = await h.post("/deepcrawl", { url: "https://ai-sdk.dev", type: "all" }, KEY, TS_CLIENT);
    expect(start.status).toBe(202);
    const taskId = obj(start.body).taskId as string;
    // waitForDeepcrawl stops at success true or status completed, and throws at success false, failed or not_found
    let status: Obj = {};
    for (let poll = 0; poll < 200; poll++) {
      status = obj((await h.get(`/deepcrawl/status/${encodeURIComponent(taskId)}`, KEY, TS_CLIENT)).body);
      expect(status.success, JSON.stringify(status)).not.toBe(false);
      expect(["failed", "not_found"]).not.toContain(status.status);
      if (status.success === true || status.status === "completed") break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status.status).toBe("completed");
    expect(typeof status.zipUrl).toBe("string");
  });

  it("errors as the clients show them: 401, 402 and 422 answered at once, with a message to show", async () => {
    expectClientError(await h.post("/search", searchToolBody("AI SDK"), "not-a-key", TS_CLIENT), 401);
    expectClientError(await h.post("/search", searchToolBody("AI SDK"), BROKE, TS_CLIENT), 402);
    expectClientError(await h.post("/search", searchToolBody("AI SDK", { max_results: 51 }), KEY, TS_CLIENT), 422);
  });

  if (version === "seed") {
    it("ask and feedback (AI SDK, Python SDK, MCP server) answer 404: the seed has neither", async () => {
      expect((await h.post("/ask", { query: "AI SDK on github" }, KEY, TS_CLIENT)).status).toBe(404);
      expect((await h.post("/feedback", { message: "The crawl tool missed a page." }, KEY, PY_CLIENT)).status).toBe(
        404,
      );
    });
    return;
  }

  it("ask (AI SDK tool, Python SDK, MCP server): the query alone; intent, ranked results and errors read", async () => {
    const before = await h.balance();
    const r = await h.post(
      "/ask",
      { query: "What are developers saying about Bun on reddit this month?" },
      KEY,
      TS_CLIENT,
    );
    expect(r.status).toBe(200);
    const body = obj(r.body);
    const intent = obj(body.intent);
    expect(intent.sources).toContain("reddit");
    expect(intent.time_range).toBe("month");
    expect(typeof intent.search_query).toBe("string");
    const results = body.results as Obj[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(20);
    for (const x of results) {
      expect(typeof x.title).toBe("string");
      expect(typeof x.link).toBe("string");
      expect(typeof x.snippet).toBe("string");
      expect(intent.sources).toContain(x.source);
      expect(x.relevance).toBeGreaterThanOrEqual(0.5);
    }
    expect(Array.isArray(body.errors)).toBe(true);
    // "a completed request costs 5 credits" (the Python SDK's ask)
    expect(await h.balance()).toBe(before - 5);
  });

  it("ask: what the clients check before sending is refused alike (a blank query, one past 500 characters)", async () => {
    // the AI SDK rejects these itself; a client that sends them meets the contract's 422
    expectClientError(await h.post("/ask", { query: "" }, KEY, TS_CLIENT), 422);
    expectClientError(await h.post("/ask", { query: "x".repeat(501) }, KEY, TS_CLIENT), 422);
    // a stray argument the AI SDK strips would be refused here: the endpoint takes query alone (D-ask-request)
    expectClientError(await h.post("/ask", { query: "bun", max_results: 20 }, KEY, TS_CLIENT), 422);
  });

  it("Python SDK feedback: every field it can fill; the report's id and status read, free", async () => {
    const before = await h.balance();
    const r = await h.post(
      "/feedback",
      {
        message: "The sitemap call found no links on a site with two sitemaps.",
        intent: "list the docs pages before crawling them",
        category: "bug",
        request_id: "req_0123456789",
        agent: { name: "research-agent", model: "local-7b" },
      },
      KEY,
      PY_CLIENT,
    );
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^fb_/), status: "new" });
    expect(await h.balance()).toBe(before);
    // the message alone (the SDK leaves every unset field out)
    const bare = await h.post("/feedback", { message: "Thanks." }, KEY, PY_CLIENT);
    expect(bare.status).toBe(201);
  });
});
