// The mock under the live contract (`--contract live`, D-live-version): POST /ask and POST /feedback answered,
// charged and refused like the contract's other operations, every answer validated against the live document (the
// harness fails the file on a violation); under the seed both stay 404. Search results carry the new fields under
// both versions.
import { askLinkKey } from "@plumbline-kit/platform/ask-intent";
import { describe, expect, it } from "vitest";
import { BROKE, useMock } from "./harness.ts";

const live = useMock({ contractVersion: "live", clock: "manual", startTime: Date.parse("2026-11-20T12:00:00Z") });
const seed = useMock();
// the contract's own rate limits (10 feedback reports a minute) on the mock's manual clock
const limited = useMock({ contractVersion: "live", clock: "manual", rateLimits: undefined });

interface AskAnswer {
  query: string;
  intent: { search_query: string; sources: string[]; time_range: string | null };
  results: Array<{
    title: string;
    link: string;
    snippet: string;
    source: string;
    relevance: number;
    published_date?: string;
  }>;
  errors: Array<{ source: string; message: string }>;
}
const ask = async (query: string, headers?: Record<string, string>) => {
  const r = await live.post("/ask", { query }, undefined, headers);
  return { status: r.status, body: r.body as AskAnswer };
};

describe("POST /ask under the live contract", () => {
  it("reads the engines and the window from the request's phrases, and keeps only the keywords", async () => {
    const cases: Array<[string, string[], string | null, string]> = [
      ["vector database benchmarks on github this week", ["github", "google"], "week", "vector database benchmarks"],
      ["papers about diffusion models this year", ["arxiv", "google"], "year", "diffusion models"],
      ["what are people saying on reddit about bun today", ["reddit", "google"], "day", "people saying bun"],
      ["rust async runtimes", ["google"], null, "rust async runtimes"],
    ];
    for (const [query, sources, timeRange, keywords] of cases) {
      const r = await ask(query);
      expect(r.status, query).toBe(200);
      expect(r.body.query).toBe(query);
      expect(r.body.intent.sources, query).toEqual(sources);
      expect(r.body.intent.time_range, query).toBe(timeRange);
      expect(r.body.intent.search_query.toLowerCase(), query).toContain(keywords.split(" ")[0]);
      expect(r.body.intent.search_query, query).not.toMatch(/github|this week|papers|this year|reddit|today/i);
    }
  });

  it("answers only results of relevance ≥ 0.5 with two decimals, best first, each link once, from the engines searched", async () => {
    for (const query of ["vector database benchmarks on github this week", "kubernetes operators", "llm papers"]) {
      const { body } = await ask(query);
      expect(body.results.length, query).toBeGreaterThan(0);
      expect(body.results.length).toBeLessThanOrEqual(20);
      const scores = body.results.map((r) => r.relevance);
      expect(
        scores.every((s) => s >= 0.5 && s <= 1 && Math.round(s * 100) === s * 100),
        query,
      ).toBe(true);
      expect(scores, query).toEqual([...scores].sort((a, b) => b - a));
      const keys = body.results.map((r) => askLinkKey(r.link));
      expect(new Set(keys).size, query).toBe(keys.length);
      for (const r of body.results) expect(body.intent.sources).toContain(r.source);
    }
  });

  it("dates results within the window the request asked for", async () => {
    const { body } = await ask("vector databases on github this week");
    const now = Date.parse("2026-11-20T12:00:00Z");
    for (const r of body.results) {
      const at = Date.parse(r.published_date ?? "");
      expect(at, r.link).toBeLessThanOrEqual(now);
      expect(at, r.link).toBeGreaterThanOrEqual(now - 7 * 86_400_000 - 86_400_000);
    }
  });

  it("is deterministic for a seed and differs for another", async () => {
    const a = await ask("open source observability tools");
    const b = await ask("open source observability tools");
    const c = await ask("open source observability tools", { prefer: "seed=7" });
    expect(b.body).toEqual(a.body);
    expect(c.body.results).not.toEqual(a.body.results);
  });

  it("charges 5 credits, with a failing engine listed in errors too; every engine failing is a free 502", async () => {
    const price = live.contract.prices.get("ask")?.credits;
    expect(price).toBe(5);
    let before = await live.balance();
    expect((await ask("llm papers")).status).toBe(200);
    expect(before - (await live.balance())).toBe(price);

    before = await live.balance();
    const partial = await ask("llm papers", { prefer: 'fail-engines="arxiv"' });
    expect(partial.status).toBe(200);
    expect(partial.body.errors).toEqual([{ source: "arxiv", message: expect.any(String) }]);
    expect(partial.body.results.every((r) => r.source === "google")).toBe(true);
    expect(before - (await live.balance())).toBe(price);

    before = await live.balance();
    const none = await live.post("/ask", { query: "llm papers" }, undefined, { prefer: 'fail-engines="arxiv,google"' });
    expect([none.status, (none.body as { code: string }).code]).toEqual([502, "PLB_UPSTREAM_FAILED"]);
    expect(await live.balance()).toBe(before);
  });

  it("refuses like every paid operation: 402 when broke, 402 challenge without a key, 422 naming the field", async () => {
    const broke = await live.post("/ask", { query: "q" }, BROKE);
    expect([broke.status, (broke.body as { code: string }).code]).toEqual([402, "PLB_INSUFFICIENT_CREDITS"]);
    const anonymous = await live.post("/ask", { query: "q" }, null);
    expect(anonymous.status).toBe(402);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Payment /);
    const before = await live.balance();
    for (const [body, field, code] of [
      [{ query: "q", search_service: "github" }, "/search_service", "additionalProperties"],
      [{ query: "x".repeat(501) }, "/query", "maxLength"],
      [{ query: "" }, "/query", "minLength"],
      [{}, "/query", "required"],
    ] as const) {
      const r = await live.post("/ask", body);
      const err = r.body as { code: string; message: string; errors: Array<{ field: string; code: string }> };
      expect([r.status, err.code], field).toEqual([422, "PLB_VALIDATION_FAILED"]);
      expect(err.errors, field).toContainEqual(expect.objectContaining({ field, code }));
      expect(err.message, field).toContain(field.slice(1));
    }
    expect(await live.balance()).toBe(before);
  });
});

describe("POST /feedback under the live contract", () => {
  it("answers 201 {id: fb_…, status: new} once the report is kept, free, and lists it to the operator only", async () => {
    const before = await live.balance();
    const body = {
      message: "Sitemap found no links",
      category: "bug",
      request_id: "req_1",
      agent: { name: "a", model: "m" },
    };
    const r = await live.post("/feedback", body);
    expect(r.status).toBe(201);
    const answer = r.body as { id: string; status: string };
    expect(answer).toEqual({ id: expect.stringMatching(/^fb_[a-z2-7]{20}$/), status: "new" });
    expect(await live.balance()).toBe(before);
    const minimal = await live.post("/feedback", { message: "more engines please" });
    expect(minimal.status).toBe(201);
    const listed = (await live.admin("GET", "/feedback")).body as { reports: Array<Record<string, unknown>> };
    const kept = listed.reports.find((x) => x.id === answer.id);
    expect(kept).toMatchObject({ ...body, accountId: expect.any(String), requestId: r.headers.get("x-request-id") });
    expect(listed.reports.find((x) => x.id === (minimal.body as { id: string }).id)).toMatchObject({
      message: "more engines please",
      category: "other",
    });
  });

  it("answers 503 and keeps nothing when the store fails", async () => {
    await live.admin("PUT", "/feedback/failures", { times: 1 });
    const count = ((await live.admin("GET", "/feedback")).body as { reports: unknown[] }).reports.length;
    const r = await live.post("/feedback", { message: "lost?" });
    expect([r.status, (r.body as { code: string }).code]).toEqual([503, "PLB_SERVICE_UNAVAILABLE"]);
    expect(((await live.admin("GET", "/feedback")).body as { reports: unknown[] }).reports.length).toBe(count);
    expect((await live.post("/feedback", { message: "kept" })).status).toBe(201);
  });

  it("refuses a body over 16 KiB (413), not JSON (415), a schema violation naming the field (422), no key (401)", async () => {
    const big = await live.post("/feedback", { message: "m", intent: "x".repeat(17_000) });
    expect([big.status, (big.body as { code: string }).code]).toEqual([413, "PLB_PAYLOAD_TOO_LARGE"]);
    const text = await live.call("POST", "/feedback", { raw: "message=hi", headers: { "content-type": "text/plain" } });
    expect([text.status, (text.body as { code: string }).code]).toEqual([415, "PLB_MEDIA_TYPE_REFUSED"]);
    for (const [body, field, code] of [
      [{}, "/message", "required"],
      [{ message: "" }, "/message", "minLength"],
      [{ message: "x".repeat(4001) }, "/message", "maxLength"],
      [{ message: "m", category: "praise" }, "/category", "enum"],
      [{ message: "m", api_key: "secret" }, "/api_key", "additionalProperties"],
      [{ message: "m", agent: { name: "a", version: "1" } }, "/agent/version", "additionalProperties"],
    ] as const) {
      const r = await live.post("/feedback", body);
      const err = r.body as { code: string; errors: Array<{ field: string; code: string }> };
      expect([r.status, err.code], field).toEqual([422, "PLB_VALIDATION_FAILED"]);
      expect(err.errors, field).toContainEqual(expect.objectContaining({ field, code }));
    }
    const malformed = await live.call("POST", "/feedback", {
      raw: "{",
      headers: { "content-type": "application/json" },
    });
    expect([malformed.status, (malformed.body as { code: string }).code]).toEqual([400, "PLB_MALFORMED_JSON"]);
    const anonymous = await live.post("/feedback", { message: "m" }, null);
    expect([anonymous.status, (anonymous.body as { code: string }).code]).toEqual([401, "PLB_MISSING_CREDENTIAL"]);
    const unknown = await live.post("/feedback", { message: "m" }, "no-such-key");
    expect(unknown.status).toBe(401);
  });

  it("accepts 10 reports an account a minute; the 11th is 429 with Retry-After, the next window takes more", async () => {
    for (let i = 0; i < 10; i++) expect((await limited.post("/feedback", { message: `report ${i}` })).status).toBe(201);
    const refused = await limited.post("/feedback", { message: "one too many" });
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([429, "PLB_RATE_LIMITED"]);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("ratelimit-policy")).toBe('"feedback";q=10;w=60');
    const kept = ((await limited.admin("GET", "/feedback")).body as { reports: unknown[] }).reports;
    expect(kept).toHaveLength(10);
    await limited.admin("POST", "/clock/advance", { ms: 60_000 });
    expect((await limited.post("/feedback", { message: "later" })).status).toBe(201);
  });
});

describe("the rest of the live contract on the mock", () => {
  it("accepts crawl's enable_fallback, in a batch too, and yandex; refuses sogou", async () => {
    expect((await live.post("/crawl", { url: "https://example.com/", enable_fallback: false })).status).toBe(200);
    expect((await live.post("/crawl", [{ url: "https://example.com/a", enable_fallback: true }])).status).toBe(200);
    expect((await live.post("/search", { query: "q", search_service: "yandex" })).status).toBe(200);
    expect((await live.post("/search", { query: "q", search_service: "sogou" })).status).toBe(422);
  });
});

describe("the seed contract on the mock", () => {
  it("answers /ask and /feedback 404, as before, and refuses enable_fallback", async () => {
    for (const path of ["/ask", "/feedback"]) {
      const r = await seed.post(path, { query: "q", message: "m" });
      expect([r.status, (r.body as { code: string }).code], path).toEqual([404, "PLB_ROUTE_NOT_FOUND"]);
    }
    expect((await seed.post("/crawl", { url: "https://example.com/", enable_fallback: false })).status).toBe(422);
  });
});

describe("search results under both versions", () => {
  it("carry published_date, github kind/stars/language/num_comments and hackernews points/num_comments/story_url", async () => {
    for (const h of [seed, live]) {
      const gh = (await h.post("/search", { query: "tokio", search_service: "github", max_results: 10 })).body as {
        results: Array<Record<string, unknown>>;
      };
      for (const r of gh.results) {
        expect(r.published_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(["repo", "issue", "pr", "discussion"]).toContain(r.kind);
        if (r.kind === "repo") expect(r.stars).toEqual(expect.any(Number));
        else expect(r.num_comments).toEqual(expect.any(Number));
      }
      const web = (await h.post("/search", { query: "tokio", max_results: 3 })).body as {
        results: Array<Record<string, unknown>>;
      };
      for (const r of web.results) {
        expect(r.published_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(r.kind).toBeUndefined();
      }
      const hn = (await h.post("/news", { query: "rust", search_service: "hackernews", max_results: 10 })).body as {
        results: Array<Record<string, unknown>>;
      };
      for (const r of hn.results) {
        expect(r.link).toMatch(/^https:\/\/news\.ycombinator\.com\/item\?id=\d+$/);
        expect(r.points).toEqual(expect.any(Number));
        expect(r.num_comments).toEqual(expect.any(Number));
        expect(typeof r.story_url).toBe("string");
      }
    }
  });
});
