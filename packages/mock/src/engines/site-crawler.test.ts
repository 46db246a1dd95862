import { describe, expect, it } from "vitest";
import { ctx, FIXED_NOW, ok, SEEDS, siteCrawler } from "../test/engine-fixture.ts";

describe("synthetic site crawler (deepcrawl)", () => {
  it("discovers 3..12 URLs on the host for sitemap and 8..20 for all, the start URL first", async () => {
    for (const seed of SEEDS) {
      const sitemap = ok(await siteCrawler.discover("https://example.com/docs", "sitemap", ctx(seed)));
      expect(sitemap.length).toBeGreaterThanOrEqual(3);
      expect(sitemap.length).toBeLessThanOrEqual(12);
      const all = ok(await siteCrawler.discover("https://example.com/docs", "all", ctx(seed)));
      expect(all.length).toBeGreaterThanOrEqual(8);
      expect(all.length).toBeLessThanOrEqual(20);
      for (const list of [sitemap, all]) {
        expect(list[0]).toBe("https://example.com/docs");
        expect(new Set(list).size).toBe(list.length);
        for (const u of list) expect(new URL(u).origin).toBe("https://example.com");
      }
    }
  });

  it("is deterministic per seed and varies with it", async () => {
    const a = await siteCrawler.discover("https://example.com/", "all", ctx(2));
    expect(await siteCrawler.discover("https://example.com/", "all", ctx(2))).toStrictEqual(a);
    expect(await siteCrawler.discover("https://example.com/", "all", ctx(3))).not.toStrictEqual(a);
  });

  it("fetches a page as Markdown with the clock's time, and a /status/404 page as a failure", async () => {
    const page = await siteCrawler.fetchPage("https://example.com/guides/getting-started", ctx());
    expect(page).toMatchObject({ status: 200, title: "Getting Started", fetchedAt: FIXED_NOW.toISOString() });
    expect(page.markdown).toMatch(/^# Getting Started\n/);
    const missing = await siteCrawler.fetchPage("https://example.com/old/status/404", ctx());
    expect(missing).toMatchObject({ status: 404, markdown: null, title: null });
  });

  it("slips a failing page into the list with variability max", async () => {
    let failing = 0;
    for (const seed of SEEDS) {
      const list = ok(await siteCrawler.discover("https://example.com/", "sitemap", ctx(seed, "max")));
      failing += list.filter((u) => /\/status\/\d{3}$/.test(u)).length;
    }
    expect(failing).toBeGreaterThan(0);
  });

  it("fails discovery of a failing start URL as PLB_UPSTREAM_FAILED (deepcrawl lists no 404)", async () => {
    const r = await siteCrawler.discover("https://example.com/status/404", "sitemap", ctx());
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});
