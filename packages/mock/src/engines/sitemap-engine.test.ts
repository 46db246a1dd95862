import { describe, expect, it } from "vitest";
import { contract, ctx, engines, ok, SEEDS } from "../test/engine-fixture.ts";

const sitemap = (url: string, type?: "sitemap" | "all", seed = 1) =>
  engines.sitemap((type ? { url, type } : { url }) as never, ctx(seed));

describe("synthetic sitemap", () => {
  it("declares 5..25 distinct absolute URLs on the requested host and scheme", async () => {
    for (const seed of SEEDS) {
      const body = ok(await sitemap("http://shop.example.com:8080/catalog", undefined, seed));
      expect(contract.validators.checkResponse("sitemap", 200, "application/json", body)).toBeNull();
      expect(body.links.length).toBeGreaterThanOrEqual(5);
      expect(body.links.length).toBeLessThanOrEqual(25);
      expect(new Set(body.links).size).toBe(body.links.length);
      for (const link of body.links) expect(new URL(link).origin).toBe("http://shop.example.com:8080");
    }
  });

  it("lists the page's links on other hosts too for type all", async () => {
    for (const seed of SEEDS) {
      const body = ok(await sitemap("https://example.com/blog/", "all", seed));
      expect(contract.validators.checkResponse("sitemap", 200, "application/json", body)).toBeNull();
      const hosts = body.links.map((l) => new URL(l).hostname);
      expect(hosts).toContain("example.com");
      expect(hosts.filter((h) => h !== "example.com").length).toBeGreaterThanOrEqual(3);
    }
  });

  it("is deterministic per seed and request, and varies with the seed", async () => {
    expect(ok(await sitemap("https://example.com/", "all", 3))).toStrictEqual(
      ok(await sitemap("https://example.com/", "all", 3)),
    );
    expect(ok(await sitemap("https://example.com/", "all", 3))).not.toStrictEqual(
      ok(await sitemap("https://example.com/", "all", 4)),
    );
  });

  it("reports a failing target as PLB_UPSTREAM_FAILED (sitemap lists no 404 or 410)", async () => {
    for (const s of [404, 410, 500, 502]) {
      expect(await sitemap(`https://example.com/status/${s}`)).toMatchObject({
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
      });
    }
  });
});
