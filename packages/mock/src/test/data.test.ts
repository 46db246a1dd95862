// Generated data through HTTP (issue 3 "Data"): deterministic for a seed and request, and consistent with it.

import { createAjv } from "@plumbline-kit/contract/validators";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { useMock } from "./harness.ts";

const h = useMock({ seed: 7 });

type Search = {
  searchParameters: object;
  results: Array<{ link: string; content?: string; title: string }>;
  images?: string[];
};

const host = (link: string) => new URL(link).hostname;

describe("generated data", () => {
  it("is the same for the same seed and request, and differs for another seed", async () => {
    const q = { query: "vector databases", max_results: 8 };
    const a = await h.post("/search", q);
    const b = await h.post("/search", q);
    expect(a.body).toEqual(b.body);
    const other = await h.post("/search", q, undefined, { prefer: "seed=8" });
    expect(other.body).not.toEqual(a.body);
    expect((await h.post("/search", q, undefined, { prefer: "seed=7" })).body).toEqual(a.body);
  });

  it("echoes the request with its defaults (D-echo) and honours max_results and page", async () => {
    const q = { query: "kubernetes operators", max_results: 7, page: 2, language: "en" };
    const r = (await h.post("/search", q)).body as Search;
    expect(r.searchParameters).toEqual({ ...q, crawl_results: 0, image: false, include_sites: [], exclude_sites: [] });
    expect(r.results).toHaveLength(7);
    const first = (await h.post("/search", { ...q, page: 1 })).body as Search;
    expect(first.results.map((x) => x.link)).not.toEqual(r.results.map((x) => x.link));
    expect(((await h.post("/search", { query: "x" })).body as Search).results).toHaveLength(5); // the default
  });

  it("respects include_sites and exclude_sites", async () => {
    const inc = (await h.post("/search", { query: "rust", max_results: 20, include_sites: ["github.com", "docs.rs"] }))
      .body as Search;
    for (const r of inc.results)
      expect(["github.com", "docs.rs"].some((s) => host(r.link) === s || host(r.link).endsWith(`.${s}`))).toBe(true);
    const all = (await h.post("/search", { query: "rust", max_results: 20 })).body as Search;
    const common = host(all.results[0].link);
    const exc = (await h.post("/search", { query: "rust", max_results: 20, exclude_sites: [common] })).body as Search;
    for (const r of exc.results) expect(host(r.link) === common || host(r.link).endsWith(`.${common}`)).toBe(false);
  });

  it("gives N results with content for crawl_results N, and images when asked", async () => {
    const r = (await h.post("/news", { query: "elections", max_results: 6, crawl_results: 2, image: true }))
      .body as Search;
    expect(r.results.map((x) => typeof x.content === "string" && x.content.length > 0)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(r.images?.length).toBeGreaterThan(0);
    for (const url of r.images ?? []) expect(url).toMatch(/^https:\/\//);
    expect(((await h.post("/news", { query: "elections" })).body as Search).images).toBeUndefined();
  });

  it("crawls a URL into Markdown-like readable text with metadata", async () => {
    const r = await h.post("/crawl", { url: "https://blog.example.com/posts/release-notes" });
    const body = r.body as {
      crawlParameters: { url: string };
      results: { title: string; link: string; content: string; metadata: Record<string, unknown> };
    };
    expect(body.crawlParameters.url).toBe("https://blog.example.com/posts/release-notes");
    expect(body.results.link).toBe("https://blog.example.com/posts/release-notes");
    expect(body.results.content).toMatch(/^# /m);
    expect(body.results.content).not.toMatch(/<script|<nav/i);
    // words as a reader counts them: tokens holding a letter or digit, so `#` and `-` marks are not words
    expect(body.results.metadata.word_count).toBe(
      body.results.content.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length,
    );
    const batch = await h.post("/crawl", [{ url: "https://a.example.com/x" }, { url: "https://b.example.com/y" }]);
    expect(
      (batch.body as Array<{ crawlParameters: { url: string } }>).map((x) => x.crawlParameters.url).sort(),
    ).toEqual(["https://a.example.com/x", "https://b.example.com/y"]);
  });

  it("keeps a crawl batch to the URLs that succeeded (D-crawl-batch)", async () => {
    const r = await h.post("/crawl", [
      { url: "https://a.example.com/ok" },
      { url: "https://a.example.com/status/502" },
    ]);
    expect(r.status).toBe(200);
    expect((r.body as Array<{ crawlParameters: { url: string } }>).map((x) => x.crawlParameters.url)).toEqual([
      "https://a.example.com/ok",
    ]);
    const none = await h.post("/crawl", [{ url: "https://a.example.com/status/502" }]);
    expect(none.status).toBe(502);
  });

  it("returns sitemap links of the requested host, and other hosts for type all", async () => {
    const s = (await h.post("/sitemap", { url: "https://www.example.net/docs/" })).body as { links: string[] };
    expect(s.links.length).toBeGreaterThan(0);
    for (const l of s.links) expect(host(l)).toBe("www.example.net");
    const all = (await h.post("/sitemap", { url: "https://www.example.net/docs/", type: "all" })).body as {
      links: string[];
    };
    expect(all.links.some((l) => host(l) !== "www.example.net")).toBe(true);
  });

  it("returns up to max_results trending items (default 10, capped at 50)", async () => {
    const gh = (await h.post("/trending", { search_service: "github", max_results: 4 })).body as {
      trendingParameters: object;
      results: Array<{ url: string }>;
    };
    expect(gh.trendingParameters).toEqual({ search_service: "github", max_results: 4 });
    expect(gh.results).toHaveLength(4);
    for (const r of gh.results) expect(host(r.url)).toBe("github.com");
    expect(
      ((await h.post("/trending", { search_service: "hackernews" })).body as { results: unknown[] }).results,
    ).toHaveLength(10);
    expect(
      ((await h.post("/trending", { search_service: "hackernews", max_results: 500 })).body as { results: unknown[] })
        .results,
    ).toHaveLength(50);
  });

  it("extracts results that validate against the supplied response_format, plain or OpenAI-style", async () => {
    const schema = {
      type: "object",
      required: ["plans", "currency"],
      properties: {
        plans: {
          type: "array",
          minItems: 2,
          items: {
            type: "object",
            required: ["name", "price"],
            properties: { name: { type: "string" }, price: { type: "number", minimum: 0 } },
          },
        },
        currency: { type: "string", enum: ["USD", "EUR"] },
        homepage: { type: "string", format: "uri" },
      },
      additionalProperties: false,
    };
    const validate = createAjv().compile(schema);
    for (const response_format of [schema, { type: "json_schema", json_schema: { name: "plans", schema } }]) {
      const r = (await h.post("/extract", { url: "https://example.com/pricing", prompt: "plans", response_format }))
        .body as {
        success: boolean;
        results: unknown;
      };
      expect(r.success).toBe(true);
      expect(validate(r.results), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it("renders a real image of the requested format and size", async () => {
    const cases = [
      [{ url: "https://example.com/" }, "png", 1440, 900],
      [
        {
          url: "https://example.com/",
          format: "jpeg",
          quality: 60,
          viewport: { width: 390, height: 844, device_scale_factor: 2 },
        },
        "jpeg",
        780,
        1688,
      ],
      [{ url: "https://example.com/", format: "webp", viewport: { width: 800, height: 600 } }, "webp", 800, 600],
    ] as const;
    for (const [body, format, width, height] of cases) {
      const r = await h.post("/screenshot", body);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe(`image/${format}`);
      const meta = await sharp(r.raw).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, width, height]);
    }
    const full = await sharp(
      (
        await h.post("/screenshot", {
          url: "https://example.com/",
          full_page: true,
          viewport: { width: 800, height: 600 },
        })
      ).raw,
    ).metadata();
    expect(full.width).toBe(800);
    expect(full.height).toBeGreaterThan(600);
  });
});
