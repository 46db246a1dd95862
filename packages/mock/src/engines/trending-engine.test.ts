import type { Schemas } from "@plumbline-kit/contract";
import { describe, expect, it } from "vitest";
import { contract, ctx, engines, ok, SEEDS } from "../test/engine-fixture.ts";

type Request = Schemas["TrendingRequest"];
const trending = (r: Partial<Request>, seed = 1, v: "normal" | "max" = "normal") =>
  engines.trending({ search_service: "github", ...r } as Request, ctx(seed, v));

describe("synthetic trending", () => {
  it("lists github repositories as owner/name at their github.com URL", async () => {
    const body = ok(await trending({ max_results: 12 }));
    expect(contract.validators.checkResponse("trending", 200, "application/json", body)).toBeNull();
    expect(body.trendingParameters).toStrictEqual({ search_service: "github", max_results: 12 });
    expect(body.results).toHaveLength(12);
    for (const r of body.results) {
      expect(r.title).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(r.url).toBe(`https://github.com/${r.title}`);
      expect(typeof r.description).toBe("string");
    }
  });

  it("defaults to 10 items and caps at 50 (D-trending-platforms), echoing the request as sent", async () => {
    const dflt = ok(await trending({}));
    expect(dflt.results).toHaveLength(10);
    expect(dflt.trendingParameters).toStrictEqual({ search_service: "github" });
    expect(ok(await trending({ max_results: 500 })).results).toHaveLength(50);
  });

  it("lists hackernews stories on varied hosts, some without a description: the field left out, never null", async () => {
    const body = ok(await trending({ search_service: "hackernews", max_results: 50 }));
    expect(contract.validators.checkResponse("trending", 200, "application/json", body)).toBeNull();
    expect(new Set(body.results.map((r) => new URL(r.url).hostname)).size).toBeGreaterThan(5);
    // D-trending-description: absent in the default mode (the service's own MCP server rejects null)
    expect(body.results.some((r) => !("description" in r))).toBe(true);
    expect(body.results.some((r) => r.description === null)).toBe(false);
    expect(body.results.some((r) => typeof r.description === "string")).toBe(true);
  });

  it("nulls and drops descriptions with variability max, still valid", async () => {
    const seen = { nullDescription: false, absentDescription: false };
    for (const seed of SEEDS.slice(0, 5)) {
      const body = ok(await trending({}, seed, "max"));
      expect(contract.validators.checkResponse("trending", 200, "application/json", body)).toBeNull();
      if (body.results.some((r) => r.description === null)) seen.nullDescription = true;
      if (body.results.some((r) => !("description" in r))) seen.absentDescription = true;
    }
    expect(seen).toEqual({ nullDescription: true, absentDescription: true });
  });

  it("is deterministic per seed and request, and varies with the seed", async () => {
    expect(ok(await trending({}, 9))).toStrictEqual(ok(await trending({}, 9)));
    expect(ok(await trending({}, 9))).not.toStrictEqual(ok(await trending({}, 10)));
  });
});
