// The mock steered into each edge of the catalogue (startMock({ edge })): it answers what the edge says on the
// operations it applies to, every answer still validates against the spec, it records the requests it altered,
// and a client calling only the other operations meets none of it.
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { EDGES } from "@plumbline-kit/contract/edges/catalogue";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../start-mock.ts";
import { type Exchange, violationsOf } from "./harness.ts";

const KEY = "edge-key";
let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

// biome-ignore lint/suspicious/noExplicitAny: answers read by the probes, asserted field by field
type Json = Record<string, any>;

interface Client {
  mock: RunningMock;
  violations: string[];
  call(method: string, path: string, body?: unknown): Promise<Exchange>;
  close(): Promise<void>;
}

async function steered(id: string | null): Promise<Client> {
  const mock = await startMock({
    port: 0,
    contract,
    keys: [{ key: KEY, credits: 100_000 }],
    clock: "manual",
    rateLimits: { perAccount: 0 },
    edge: { id, advanceClockPerPollMs: 1000 },
  });
  const violations: string[] = [];
  return {
    mock,
    violations,
    async call(method, path, body) {
      const res = await fetch(mock.url + path, {
        method,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const raw = Buffer.from(await res.arrayBuffer());
      const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(raw.toString()) : undefined;
      const ex = { status: res.status, headers: res.headers, body: json, raw };
      violations.push(...violationsOf(contract, method, path, ex));
      return ex;
    },
    close: () => mock.close(),
  };
}

/** A valid request of each operation, and the deepcrawl journey (start, then poll to the end). */
const SAMPLES: Record<string, (c: Client) => Promise<unknown>> = {
  search: (c) => c.call("POST", "/search", { query: "edges", max_results: 5, image: true }),
  news: (c) => c.call("POST", "/news", { query: "edges", max_results: 5 }),
  crawl: (c) => c.call("POST", "/crawl", { url: "https://example.com/a" }),
  screenshot: (c) => c.call("POST", "/screenshot", { url: "https://example.com/" }),
  sitemap: (c) => c.call("POST", "/sitemap", { url: "https://example.com/" }),
  trending: (c) => c.call("POST", "/trending", { search_service: "github", max_results: 5 }),
  extract: (c) => c.call("POST", "/extract", { url: "https://example.com/", prompt: "the title" }),
  deepcrawl: (c) => c.call("POST", "/deepcrawl", { url: "https://example.com/" }),
  deepcrawlStatus: (c) => c.call("GET", "/deepcrawl/status/dc_00000000000000000000000000000000"),
  usage: (c) => c.call("GET", "/usage"),
  health: (c) => c.call("GET", "/health"),
};

async function poll(c: Client, taskId: string): Promise<Json[]> {
  const seen: Json[] = [];
  for (let i = 0; i < 100; i++) {
    const r = await c.call("GET", `/deepcrawl/status/${taskId}`);
    seen.push(r.body as Json);
    if (r.status !== 200 || ["completed", "failed"].includes((r.body as Json).status)) break;
  }
  return seen;
}

/** What each edge answers, asserted on a fresh mock steered into it. */
const PROBES: Record<string, (c: Client) => Promise<void>> = {
  "rate-limited": async (c) => {
    const first = await c.call("POST", "/search", { query: "q" });
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("1");
    expect((await c.call("POST", "/search", { query: "q" })).status).toBe(200);
    expect((await c.call("POST", "/news", { query: "q" })).status).toBe(200);
  },
  "credits-run-out-mid-batch": async (c) => {
    const r = await c.call("POST", "/search", [{ query: "a" }, { query: "b" }, { query: "c" }]);
    const body = r.body as Json;
    expect(body.results.map((e: Json) => e.success)).toEqual([true, false, false]);
    expect(body.results[1].error.statusCode).toBe(402);
    expect(body.summary).toMatchObject({ total: 3, successful: 1, failed: 2, totalCost: 1 });
  },
  "batch-entry-failed": async (c) => {
    const body = (await c.call("POST", "/news", [{ query: "a" }, { query: "b" }])).body as Json;
    expect(body.results.map((e: Json) => e.success)).toEqual([false, true]);
    expect(body.results[0].error.statusCode).toBe(502);
  },
  "deepcrawl-failed": async (c) => {
    const { taskId } = (await c.call("POST", "/deepcrawl", { url: "https://example.com/" })).body as Json;
    const states = await poll(c, taskId);
    expect(states.map((s) => s.status)).toEqual(expect.arrayContaining(["waiting", "processing", "failed"]));
    expect(states.at(-1)).toMatchObject({ status: "failed", success: false });
  },
  "deepcrawl-slow": async (c) => {
    const { taskId } = (await c.call("POST", "/deepcrawl", { url: "https://example.com/" })).body as Json;
    const states = await poll(c, taskId);
    expect(states.at(-1)).toMatchObject({ status: "completed", success: true });
    expect(states.length).toBeGreaterThanOrEqual(25);
  },
  "task-not-found": async (c) => {
    const { taskId } = (await c.call("POST", "/deepcrawl", { url: "https://example.com/" })).body as Json;
    const r = await c.call("GET", `/deepcrawl/status/${taskId}`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ taskId, status: "not_found", success: false });
  },
  "trending-description-null": async (c) => {
    const body = (await c.call("POST", "/trending", { search_service: "github", max_results: 5 })).body as Json;
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) expect(r.description).toBeNull();
  },
  "zero-results": async (c) => {
    const body = (await c.call("POST", "/search", { query: "q", image: true })).body as Json;
    expect(body.results).toEqual([]);
    expect((await c.call("POST", "/trending", { search_service: "github" })).body).toMatchObject({ results: [] });
  },
  "fewer-results": async (c) => {
    const body = (await c.call("POST", "/search", { query: "q", max_results: 10 })).body as Json;
    expect(body.results).toHaveLength(1);
  },
  "optional-fields-absent": async (c) => {
    const search = (await c.call("POST", "/search", { query: "q", image: true, crawl_results: 1 })).body as Json;
    expect(search).not.toHaveProperty("images");
    for (const r of search.results) expect(r).not.toHaveProperty("content");
    expect((await c.call("POST", "/crawl", { url: "https://example.com/a" })).body).not.toHaveProperty(
      "results.metadata",
    );
    const { taskId } = (await c.call("POST", "/deepcrawl", { url: "https://example.com/" })).body as Json;
    const first = (await c.call("GET", `/deepcrawl/status/${taskId}`)).body as Json;
    expect(first).toEqual({ taskId, status: expect.any(String), zipUrl: null });
  },
  "extra-properties": async (c) => {
    const search = (await c.call("POST", "/search", { query: "q" })).body as Json;
    expect(search.x_plumbline_edge).toBeDefined();
    expect(search.results[0].x_plumbline_edge).toBeDefined();
    const crawl = (await c.call("POST", "/crawl", { url: "https://example.com/a" })).body as Json;
    expect(crawl.results.x_plumbline_edge).toBeDefined();
  },
  "upstream-502": async (c) => {
    expect((await c.call("POST", "/search", { query: "q" })).status).toBe(502);
    expect((await c.call("POST", "/search", { query: "q" })).status).toBe(200);
    expect((await c.call("POST", "/crawl", { url: "https://example.com/a" })).status).toBe(502);
  },
  "screenshot-503": async (c) => {
    expect((await c.call("POST", "/screenshot", { url: "https://example.com/" })).status).toBe(503);
    expect((await c.call("POST", "/screenshot", { url: "https://example.com/" })).status).toBe(200);
  },
  "screenshot-504": async (c) => {
    expect((await c.call("POST", "/screenshot", { url: "https://example.com/" })).status).toBe(504);
    expect((await c.call("POST", "/screenshot", { url: "https://example.com/" })).status).toBe(200);
  },
  "slow-answer": async (c) => {
    // the delay is asserted by what the mock recorded, not by timing the call
    expect((await c.call("POST", "/search", { query: "q" })).status).toBe(200);
    expect(c.mock.edge?.view().altered[0]?.change).toContain("5 s");
  },
  "connection-reset": async (c) => {
    await expect(c.call("POST", "/search", { query: "q" })).rejects.toThrow();
    expect((await c.call("POST", "/search", { query: "q" })).status).toBe(200);
  },
  "non-latin-text": async (c) => {
    const body = (await c.call("POST", "/search", { query: "q" })).body as Json;
    expect(body.results[0].title).toMatch(/[\u0590-\u05FF].*[\u4E00-\u9FFF]/u);
  },
  "largest-crawl-page": async (c) => {
    const body = (await c.call("POST", "/crawl", { url: "https://example.com/a" })).body as Json;
    expect(Buffer.byteLength(body.results.content)).toBe(5 * 1024 * 1024);
  },
  "ratelimit-near-exhaustion": async (c) => {
    const r = await c.call("POST", "/search", { query: "q" });
    expect(r.headers.get("ratelimit")).toBe('"default";r=1;t=1');
  },
};

describe("edges of the catalogue", () => {
  it("each edge has a probe here", () => {
    expect(Object.keys(PROBES).sort()).toEqual(EDGES.map((e) => e.id).sort());
  });

  for (const edge of EDGES) {
    describe(edge.id, () => {
      it(`answers: ${edge.title}`, { timeout: 30_000 }, async () => {
        const c = await steered(edge.id);
        try {
          await PROBES[edge.id]?.(c);
          const view = c.mock.edge?.view();
          expect(view?.edge).toBe(edge.id);
          expect(view?.count).toBeGreaterThan(0);
          for (const a of view?.altered ?? []) expect(edge.operations).toContain(a.operationId);
          expect(c.violations).toEqual([]);
        } finally {
          await c.close();
        }
      });

      it("alters nothing when the client calls only the other operations", { timeout: 30_000 }, async () => {
        const c = await steered(edge.id);
        try {
          const others = Object.keys(SAMPLES).filter((op) => !edge.operations.includes(op));
          for (const op of others) await SAMPLES[op]?.(c);
          const view = c.mock.edge?.view();
          expect(view).toMatchObject({ edge: edge.id, count: 0, altered: [] });
          // what it called is recorded all the same (plumbline edges reads it from the baseline)
          expect(view?.operations).toEqual(others);
          expect(c.violations).toEqual([]);
        } finally {
          await c.close();
        }
      });
    });
  }

  it("a mock without an edge alters nothing, and advances its manual clock at each poll when asked", async () => {
    const c = await steered(null);
    try {
      const { taskId } = (await c.call("POST", "/deepcrawl", { url: "https://example.com/" })).body as Json;
      const states = await poll(c, taskId);
      expect(states.at(-1)).toMatchObject({ status: "completed" });
      expect(states.length).toBe(5);
      const view = { edge: null, count: 0, altered: [], operations: ["deepcrawl", "deepcrawlStatus"] };
      expect(c.mock.edge?.view()).toEqual(view);
      expect((await c.call("GET", "/__mock/edge")).body).toEqual(view);
    } finally {
      await c.close();
    }
  });

  it("POST /__mock/reset starts the edge over: nothing altered, the first paid call steered again", async () => {
    const c = await steered("rate-limited");
    try {
      expect((await c.call("POST", "/search", { query: "q" })).status).toBe(429);
      expect((await c.call("POST", "/__mock/reset")).status).toBe(200);
      expect(c.mock.edge?.view()).toEqual({ edge: "rate-limited", count: 0, altered: [], operations: [] });
      expect((await c.call("POST", "/search", { query: "q" })).status).toBe(429);
      expect(c.mock.edge?.view().count).toBe(1);
    } finally {
      await c.close();
    }
  });

  it("an unknown edge is refused at start", async () => {
    await expect(startMock({ port: 0, contract, edge: { id: "no-such-edge" } })).rejects.toThrow(/unknown edge/);
  });
});
