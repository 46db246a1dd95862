import { countWords } from "@plumbline-kit/platform/word-count";
import { describe, expect, it } from "vitest";
import { contract, ctx, engines, FIXED_NOW, ok, SEEDS } from "../test/engine-fixture.ts";

const crawl = (url: string, seed = 1, v: "normal" | "max" = "normal") => engines.crawl({ url } as never, ctx(seed, v));

describe("synthetic crawl", () => {
  it("answers a Markdown page about the URL with the D-crawl-metadata fields", async () => {
    const url = "https://example.com/blog/launch-day";
    const body = ok(await crawl(url));
    expect(contract.validators.checkResponse("crawl", 200, "application/json", body)).toBeNull();
    expect(body.crawlParameters).toEqual({ url });
    const { title, link, content, metadata } = body.results;
    expect(title).toBe("Launch Day");
    expect(link).toBe(url);
    expect(content.startsWith("# Launch Day\n\n")).toBe(true);
    expect(content).toMatch(/\n- .+/);
    expect(content).not.toMatch(/<script|cookie|navigation/i);
    expect(metadata).toMatchObject({
      site_name: "Example",
      language: "en",
      canonical_url: url,
      status_code: 200,
      content_type: "text/html",
      fetched_at: FIXED_NOW.toISOString(),
      rendered: false,
    });
    expect(metadata?.word_count).toBe(countWords(content));
    expect(typeof metadata?.description).toBe("string");
    expect(Number.isNaN(Date.parse(String(metadata?.published_time)))).toBe(false);
  });

  it("counts words as a reader does: Markdown marks are not words", () => {
    expect(countWords("# Title\n\nTwo words.\n\n- item one\n- [a link](https://x.y/z)")).toBe(7);
  });

  it("is deterministic per seed and URL, and varies with the seed", async () => {
    const url = "https://example.org/docs/intro";
    expect(ok(await crawl(url, 5))).toStrictEqual(ok(await crawl(url, 5)));
    expect(ok(await crawl(url, 5)).results.content).not.toBe(ok(await crawl(url, 6)).results.content);
  });

  it("nulls metadata fields and adds extra ones with variability max, still valid", async () => {
    let nulls = 0;
    let extras = 0;
    for (const seed of SEEDS) {
      const body = ok(await crawl("https://example.com/a/b", seed, "max"));
      expect(contract.validators.checkResponse("crawl", 200, "application/json", body)).toBeNull();
      const m = body.results.metadata ?? {};
      nulls += Object.values(m).filter((v) => v === null).length;
      extras += Object.keys(m).filter((k) => k === "author" || k === "reading_time_minutes").length;
    }
    expect(nulls).toBeGreaterThan(0);
    expect(extras).toBeGreaterThan(0);
  });

  it("follows the /status/NNN convention", async () => {
    const code = async (path: string) => {
      const r = await crawl(`https://example.com${path}`);
      return r.ok ? "ok" : r.code;
    };
    expect(await code("/status/404")).toBe("PLB_TARGET_NOT_FOUND");
    expect(await code("/status/410")).toBe("PLB_TARGET_GONE");
    expect(await code("/status/500")).toBe("PLB_UPSTREAM_FAILED");
    expect(await code("/status/502")).toBe("PLB_UPSTREAM_FAILED");
    expect(await code("/status/404/")).toBe("PLB_TARGET_NOT_FOUND");
    expect(await code("/status/200")).toBe("ok");
    expect(await code("/status/404/more")).toBe("ok");
  });
});

describe("targets that are not http(s)", () => {
  it("fail as PLB_UPSTREAM_FAILED on every target operation", async () => {
    const url = "ftp://files.example.com/readme";
    expect(await crawl(url)).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(await engines.sitemap({ url } as never, ctx())).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(await engines.extract({ url } as never, ctx())).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(await engines.screenshot({ url } as never, ctx())).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});
