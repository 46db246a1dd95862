// POST /trending against recorded upstream answers served on loopback (issue 14, "POST /trending"): GitHub's
// trending page and the Hacker News API, with max_results, results without a description and upstream failures.
import { readFileSync } from "node:fs";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import type { EngineContext } from "@plumbline-kit/platform/engines";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { createHttpClient } from "./http-client.ts";
import { createTrendingEngine } from "./trending-engine.ts";

const recorded = (name: string) => readFileSync(new URL(`../test/fixtures/trending/${name}`, import.meta.url));
const ctx: EngineContext = { requestId: "t", variability: "normal", seed: 1 };
const items = JSON.parse(recorded("hn-items.json").toString()) as Record<string, unknown>;

let contract: Contract;
let upstream: FixtureSite;
let broken: FixtureSite;
let engine: ReturnType<typeof createTrendingEngine>;

beforeAll(async () => {
  contract = await loadContract();
  const routes: Parameters<typeof serveSite>[0] = {
    "/trending": { type: "text/html; charset=utf-8", body: recorded("github-trending.html") },
    "/v0/topstories.json": { type: "application/json", body: recorded("hn-topstories.json") },
  };
  for (const [id, item] of Object.entries(items)) {
    routes[`/v0/item/${id}.json`] = { type: "application/json", body: JSON.stringify(item) };
  }
  upstream = await serveSite(routes);
  broken = await serveSite({ "/trending": { status: 503, body: "busy" }, "/v0/topstories.json": { body: "<html>" } });
  engine = createTrendingEngine({
    contract,
    http: createHttpClient({ allowPrivateNetwork: true }),
    githubUrl: upstream.url,
    hackernewsUrl: upstream.url,
  });
});
afterAll(async () => {
  await upstream.close();
  await broken.close();
});

describe("github", () => {
  it("reads repositories off the trending page, in order, without duplicates", async () => {
    const r = await engine({ search_service: "github" }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.trendingParameters).toEqual({ search_service: "github" });
    expect(r.value.results.map((x) => x.title)).toEqual([
      "microsoft/markitdown",
      "astral-sh/uv",
      "torvalds/linux",
      "ollama/ollama",
      "excalidraw/excalidraw",
    ]);
    expect(r.value.results[0]).toEqual({
      title: "microsoft/markitdown",
      url: `${upstream.url}/microsoft/markitdown`,
      description: "Python tool for converting files and office documents to Markdown.",
    });
    // a repository without a description leaves the field out (D-trending-description)
    expect(r.value.results[2]).not.toHaveProperty("description");
    for (const x of r.value.results)
      expect(contract.validators.compile({ type: "string", format: "uri" })(x.url)).toBeNull();
  });

  it("honours max_results", async () => {
    const r = await engine({ search_service: "github", max_results: 2 }, ctx);
    expect(r.ok && r.value.results.length).toBe(2);
    expect(r.ok && r.value.trendingParameters).toEqual({ search_service: "github", max_results: 2 });
  });
});

describe("hackernews", () => {
  it("reads top stories in rank order, skipping deleted, dead and non-story items", async () => {
    const r = await engine({ search_service: "hackernews", max_results: 5 }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.results.map((x) => x.title)).toEqual([
      "The SQLite query planner, explained",
      "Ask HN: What are you working on this month?",
      "A history of TLS downgrade attacks",
      "Show HN: A tiny Rust HTTP server in 300 lines",
      "Example (YC S21) is hiring backend engineers",
    ]);
    const [link, ask] = r.value.results;
    // a link story has no text: no description member, not null (D-trending-description)
    expect(link).toStrictEqual({ title: link.title, url: "https://www.sqlite.org/queryplanner.html" });
    // a self post links to its discussion and its text, without tags or entities, describes it
    expect(ask.url).toBe("https://news.ycombinator.com/item?id=42001002");
    expect(ask.description).toBe("Share what you're building. Side projects welcome & encouraged.");
  });

  it("defaults to 10 items and caps max_results as D-trending-platforms decides", async () => {
    const r = await engine({ search_service: "hackernews" }, ctx);
    expect(r.ok && r.value.results.length).toBe(10);
    const many = await engine({ search_service: "hackernews", max_results: 500 }, ctx);
    // capped at 50, the recorded list's 11 live stories and jobs are all there is
    expect(many.ok && many.value.results.length).toBe(11);
  });
});

describe("failures", () => {
  it("an unknown platform is a bad value (400), an upstream that fails a 502", async () => {
    expect(await engine({ search_service: "myspace" }, ctx)).toMatchObject({ ok: false, code: "PLB_BAD_VALUE" });
    const down = createTrendingEngine({
      contract,
      http: createHttpClient({ allowPrivateNetwork: true }),
      githubUrl: broken.url,
      hackernewsUrl: broken.url,
    });
    expect(await down({ search_service: "github" }, ctx)).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(await down({ search_service: "hackernews" }, ctx)).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});
