// Table-driven from the spec: every bound accepted at its edge and rejected one past it, every enum value accepted
// and an unknown one rejected, unknown properties and missing fields rejected, each naming the field and keyword.
import { beforeAll, describe, expect, it } from "vitest";
import { type BoundCase, boundCases } from "./bounds.ts";
import { type Contract, loadContract } from "./index.ts";

let primary: Contract;
let alt: Contract;
let cases: BoundCase[];
beforeAll(async () => {
  primary = await loadContract();
  alt = await loadContract({ profile: "alt-bounds" });
  cases = boundCases(primary);
});

function outcome(c: Contract, bc: BoundCase) {
  return c.validators.checkBody(bc.operationId, bc.body);
}

describe("boundary cases derived from the spec", () => {
  it("covers every request operation and every bound kind", () => {
    const ops = new Set(cases.map((c) => c.operationId));
    expect([...ops].sort()).toEqual([
      "crawl",
      "deepcrawl",
      "extract",
      "news",
      "screenshot",
      "search",
      "sitemap",
      "trending",
    ]);
    const kinds = new Set(cases.map((c) => c.keyword));
    for (const k of [
      "minimum",
      "maximum",
      "minLength",
      "maxLength",
      "enum",
      "type",
      "additionalProperties",
      "required",
      "maxItems",
    ]) {
      expect(kinds.has(k), k).toBe(true);
    }
    expect(cases.length).toBeGreaterThan(150);
  });

  it("accepts every case the contract allows", () => {
    const wrong = cases
      .filter((bc) => bc.valid && !outcome(primary, bc).ok)
      .map((bc) => `${bc.operationId}: ${bc.label}`);
    expect(wrong).toEqual([]);
  });

  it("rejects every case one past a bound with 422 naming the field and keyword", () => {
    const wrong: string[] = [];
    for (const bc of cases.filter((c) => !c.valid)) {
      const r = outcome(primary, bc);
      if (r.ok || r.kind !== "schema") {
        wrong.push(`${bc.operationId}: ${bc.label} → ${r.ok ? "accepted" : r.kind}`);
        continue;
      }
      const named = r.errors.some((e) => e.field === bc.field && e.code === bc.keyword);
      if (!named) wrong.push(`${bc.operationId}: ${bc.label} → ${JSON.stringify(r.errors)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("lists every violated field at once (allErrors)", () => {
    const r = primary.validators.checkBody("screenshot", {
      url: "not a uri",
      viewport: { width: 10, height: 5000, extra: true },
      format: "gif",
    });
    expect(r.ok).toBe(false);
    if (r.ok || r.kind !== "schema") return;
    expect(r.errors.map((e) => `${e.field} ${e.code}`).sort()).toEqual([
      "/format enum",
      "/url format",
      "/viewport/extra additionalProperties",
      "/viewport/height maximum",
      "/viewport/width minimum",
    ]);
    for (const e of r.errors) expect(e.message.startsWith(e.field)).toBe(true);
  });

  it("answers 400 (shape) for bodies that are neither an object nor a non-empty array", () => {
    for (const body of [null, "text", 42, true, [], undefined]) {
      expect(primary.validators.checkBody("search", body)).toEqual({ ok: false, kind: "shape" });
    }
    expect(primary.validators.checkBody("screenshot", [{ url: "https://example.com" }])).toMatchObject({
      ok: false,
      kind: "schema",
      errors: [{ field: "", code: "type" }],
    });
    expect(primary.validators.checkBody("search", [{ query: "a" }])).toEqual({ ok: true, batch: true });
  });

  it("checks query and path parameters, reporting them under /query and /path", () => {
    expect(primary.validators.checkParameters("usage", { query: { period: "month" } })).toEqual({ ok: true });
    expect(primary.validators.checkParameters("usage", { query: {} })).toEqual({ ok: true });
    expect(primary.validators.checkParameters("usage", { query: { period: "decade" } })).toMatchObject({
      ok: false,
      errors: [{ field: "/query/period", code: "enum" }],
    });
    expect(primary.validators.checkParameters("deepcrawlStatus", { path: { taskId: "" } })).toMatchObject({
      ok: false,
      errors: [{ field: "/path/taskId", code: "minLength" }],
    });
  });
});

describe("engine values beyond the interface's list (D-search-engine-values)", () => {
  it("accepts sogou and yandex for search under both profiles, and marks their cases with the decision", () => {
    for (const c of [primary, alt])
      for (const s of ["sogou", "yandex"])
        expect(c.validators.checkBody("search", { query: "q", search_service: s }).ok, `${c.profile} ${s}`).toBe(true);
    // news keeps the interface's list; an unknown value is still refused
    expect(primary.validators.checkBody("news", { query: "q", search_service: "sogou" }).ok).toBe(false);
    expect(primary.validators.checkBody("search", { query: "q", search_service: "altavista" }).ok).toBe(false);
    const decided = cases
      .filter((c) => c.decision)
      .map((c) => [c.operationId, (c.body as { search_service: string }).search_service, c.decision]);
    expect(decided).toEqual([
      ["search", "sogou", "D-search-engine-values"],
      ["search", "yandex", "D-search-engine-values"],
    ]);
  });
});

describe("the alt-bounds profile (D-bound-sets)", () => {
  const at = (c: Contract, body: object) => c.validators.checkBody("search", { query: "q", ...body }).ok;

  it("enforces the second published set for search", () => {
    expect(at(alt, { max_results: 100 })).toBe(true);
    expect(at(alt, { max_results: 101 })).toBe(false);
    expect(at(alt, { crawl_results: 10 })).toBe(true);
    expect(at(alt, { crawl_results: 11 })).toBe(false);
    for (const s of ["baidu", "360", "quark"]) expect(at(alt, { search_service: s })).toBe(false);
    expect(at(alt, { time_range: "week" })).toBe(false);
    expect(at(alt, { time_range: "month" })).toBe(true);
  });

  it("differs from the primary set exactly where the interface says", () => {
    expect(at(primary, { max_results: 100 })).toBe(false);
    expect(at(primary, { crawl_results: 50 })).toBe(true);
    expect(at(primary, { search_service: "quark" })).toBe(true);
    expect(at(primary, { time_range: "week" })).toBe(true);
    // news is not touched by the profile
    expect(alt.validators.checkBody("news", { query: "q", time_range: "week" }).ok).toBe(true);
  });

  it("derives its own boundary cases", () => {
    const altCases = boundCases(alt).filter((c) => c.operationId === "search" && c.field === "/max_results");
    expect(altCases.some((c) => c.valid && (c.body as { max_results: number }).max_results === 100)).toBe(true);
  });

  it("refuses an unknown profile", async () => {
    await expect(loadContract({ profile: "nope" })).rejects.toThrow(/unknown bound profile/);
  });
});
