import type { Schemas } from "@plumbline-kit/contract";
import { describe, expect, it } from "vitest";
import { contract, ctx, engines, ok, SEEDS } from "../test/engine-fixture.ts";

type SearchParams = Schemas["SearchParameters"];
const search = (p: Partial<SearchParams>, seed = 1, v: "normal" | "max" = "normal") =>
  engines.search({ query: "rust async runtime", ...p } as SearchParams, ctx(seed, v));
const hostOf = (link: string) => new URL(link).hostname;

describe("synthetic search", () => {
  it("answers bodies the contract accepts and echoes the request with its defaults filled in (D-echo)", async () => {
    const defaults = { max_results: 5, page: 1, crawl_results: 0, image: false, include_sites: [], exclude_sites: [] };
    const requests: Partial<SearchParams>[] = [
      {},
      { search_service: "github", max_results: 3, crawl_results: 2, image: true },
      { search_service: "wikipedia", page: 4, language: "en-GB", time_range: "week" },
      { include_sites: ["example.com"], exclude_sites: ["blog.example.com"], max_results: 50 },
    ];
    for (const r of requests) {
      const body = ok(await search(r));
      expect(contract.validators.checkResponse("search", 200, "application/json", body)).toBeNull();
      expect(body.searchParameters).toStrictEqual({ query: "rust async runtime", ...defaults, ...r });
    }
  });

  it("returns max_results hits, 5 when absent (schema default)", async () => {
    expect(ok(await search({})).results).toHaveLength(5);
    expect(ok(await search({ max_results: 1 })).results).toHaveLength(1);
    expect(ok(await search({ max_results: 37 })).results).toHaveLength(37);
  });

  it("gives other hits on page 2, continuing page 1", async () => {
    const p1 = ok(await search({ max_results: 10 })).results.map((r) => r.link);
    const p2 = ok(await search({ max_results: 10, page: 2 })).results.map((r) => r.link);
    expect(p2.filter((l) => p1.includes(l))).toEqual([]);
    const first20 = ok(await search({ max_results: 20 })).results.map((r) => r.link);
    expect(first20.slice(10)).toEqual(p2);
  });

  it("keeps every link on an included site or its subdomains", async () => {
    for (const seed of SEEDS) {
      const body = ok(await search({ include_sites: ["example.com", "https://docs.rs/tokio"], max_results: 20 }, seed));
      for (const r of body.results) expect(hostOf(r.link)).toMatch(/(^|\.)(example\.com|docs\.rs)$/);
    }
  });

  it("keeps no link on an excluded site or its subdomains", async () => {
    for (const seed of SEEDS) {
      const body = ok(await search({ exclude_sites: ["github.com", "wikipedia.org"], search_service: "github" }, seed));
      expect(body.results).toHaveLength(5);
      for (const r of body.results) expect(hostOf(r.link)).not.toMatch(/(^|\.)(github\.com|wikipedia\.org)$/);
    }
  });

  it("answers no hits when every included site is excluded", async () => {
    const body = ok(await search({ include_sites: ["example.com"], exclude_sites: ["example.com"] }));
    expect(body.results).toEqual([]);
  });

  it("carries content on the first crawl_results hits only", async () => {
    const body = ok(await search({ max_results: 6, crawl_results: 2 }));
    expect(body.results.map((r) => typeof r.content)).toEqual(["string", "string", ...Array(4).fill("undefined")]);
    expect(body.results[0].content).toMatch(/^# .+\n\n/);
    const all = ok(await search({ max_results: 3, crawl_results: 50 }));
    expect(all.results.every((r) => typeof r.content === "string")).toBe(true);
  });

  it("adds absolute https image URLs only when image is true", async () => {
    const withImages = ok(await search({ image: true }));
    expect(withImages.images?.length).toBeGreaterThan(0);
    for (const u of withImages.images ?? []) expect(new URL(u).protocol).toBe("https:");
    expect("images" in ok(await search({ image: false }))).toBe(false);
    expect("images" in ok(await search({}))).toBe(false);
  });

  it("is deterministic per seed and request, and varies with the seed", async () => {
    const r = { max_results: 8, crawl_results: 1, image: true };
    expect(ok(await search(r, 7))).toStrictEqual(ok(await search(r, 7)));
    expect(ok(await search(r, 7))).not.toStrictEqual(ok(await search(r, 8)));
  });

  it("exercises what the contract allows with variability max, still valid", async () => {
    const seen = { zero: false, extra: false, emptyImages: false };
    for (const seed of SEEDS) {
      const body = ok(await search({ image: true, max_results: 4 }, seed, "max"));
      expect(contract.validators.checkResponse("search", 200, "application/json", body)).toBeNull();
      if (body.results.length === 0) seen.zero = true;
      if (body.results.some((r) => "id" in r || "position" in r || "date" in r)) seen.extra = true;
      if (body.images?.length === 0) seen.emptyImages = true;
    }
    expect(seen).toEqual({ zero: true, extra: true, emptyImages: true });
  });

  it("fails with PLB_UPSTREAM_FAILED for the query __fail_502__", async () => {
    expect(await search({ query: "__fail_502__" })).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});

describe("synthetic news", () => {
  it("answers news-like hits that the contract accepts", async () => {
    const params = {
      query: "central bank interest rates",
      time_range: "week",
      image: true,
    } as Schemas["NewsParameters"];
    const body = ok(await engines.news(params, ctx(3)));
    expect(contract.validators.checkResponse("news", 200, "application/json", body)).toBeNull();
    // news has no page; every other default is filled in (D-echo)
    const defaults = { max_results: 5, crawl_results: 0, include_sites: [], exclude_sites: [] };
    expect(body.searchParameters).toStrictEqual({ ...defaults, ...params });
    expect(body.results).toHaveLength(5);
    for (const r of body.results) expect(r.link).toMatch(/^https:\/\/[^/]+\/[a-z]+\/\d{4}\/\d{2}\/\d{2}\//);
  });

  it("uses the engine's own site for reuters", async () => {
    const params = { query: "chip export rules", search_service: "reuters" } as Schemas["NewsParameters"];
    const body = ok(await engines.news(params, ctx(3)));
    for (const r of body.results) expect(hostOf(r.link)).toBe("www.reuters.com");
  });

  it("fails with PLB_UPSTREAM_FAILED for the query __fail_502__", async () => {
    const params = { query: "__fail_502__" } as Schemas["NewsParameters"];
    expect(await engines.news(params, ctx())).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});
