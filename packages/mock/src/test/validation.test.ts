// Validation through HTTP (issue 3 "Validation"; D-validation-status, D-error-codes): 400 for what is not JSON,
// 422 listing every violated field, 404 for unknown routes, and nothing charged for any of them.

import { boundCases } from "@plumbline-kit/contract/bounds";
import { describe, expect, it } from "vitest";
import { useMock } from "./harness.ts";

const h = useMock();

describe("request validation", () => {
  it("answers malformed JSON with 400 PLB_MALFORMED_JSON", async () => {
    const r = await h.call("POST", "/search", {
      raw: '{"query": "a",',
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: "Bad Request", code: "PLB_MALFORMED_JSON" });
  });

  it("answers a body that is not JSON with 400", async () => {
    for (const ct of ["text/plain", "application/x-www-form-urlencoded", "application/xml"]) {
      const r = await h.call("POST", "/search", { raw: "query=a", headers: { "content-type": ct } });
      expect(r.status, ct).toBe(400);
      expect((r.body as { code: string }).code).toBe("PLB_UNSUPPORTED_MEDIA_TYPE");
    }
    const none = await h.call("POST", "/crawl", {});
    expect(none.status).toBe(400);
    expect((none.body as { code: string }).code).toBe("PLB_BODY_SHAPE");
  });

  it("answers bodies that are neither an object nor a non-empty array with 400 PLB_BODY_SHAPE", async () => {
    for (const raw of ["null", '"text"', "42", "true", "[]"]) {
      const r = await h.call("POST", "/news", { raw, headers: { "content-type": "application/json" } });
      expect(r.status, raw).toBe(400);
      expect((r.body as { code: string }).code).toBe("PLB_BODY_SHAPE");
    }
  });

  it("lists every violated field in errors[] with 422", async () => {
    const r = await h.post("/screenshot", {
      url: "nope",
      viewport: { width: 100, depth: 3 },
      delay_ms: -1,
      format: "gif",
    });
    expect(r.status).toBe(422);
    const errors = (r.body as { errors: Array<{ field: string; code: string }> }).errors;
    expect(errors.map((e) => `${e.field} ${e.code}`).sort()).toEqual([
      "/delay_ms minimum",
      "/format enum",
      "/url format",
      "/viewport/depth additionalProperties",
      "/viewport/width minimum",
    ]);
  });

  it("names the entry of a batch that is invalid", async () => {
    const r = await h.post("/search", [{ query: "ok" }, { query: "x", page: 0 }]);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ errors: [{ field: "/1/page", code: "minimum" }] });
  });

  it("rejects every boundary case the spec derives and accepts every edge (422 naming the field)", async () => {
    const cases = boundCases(h.contract).filter((c) => c.operationId !== "deepcrawl" && !Array.isArray(c.body));
    const wrong: string[] = [];
    for (const c of cases.filter((x) => !x.valid)) {
      const r = await h.post(h.contract.operation(c.operationId).path, c.body);
      const named = (r.body as { errors?: Array<{ field: string; code: string }> }).errors?.some(
        (e) => e.field === c.field && e.code === c.keyword,
      );
      if (r.status !== 422 || !named) wrong.push(`${c.operationId} ${c.label}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it("answers a bad usage period with 400 (usage lists no 422)", async () => {
    const r = await h.get("/usage?period=decade");
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "PLB_BAD_PARAMETER", errors: [{ field: "/query/period", code: "enum" }] });
    expect((await h.get("/usage?period=week")).status).toBe(200);
  });

  it("answers an unknown trending platform with 400 (D-trending-platforms)", async () => {
    const r = await h.post("/trending", { search_service: "myspace" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "PLB_BAD_VALUE", errors: [{ field: "/search_service", code: "enum" }] });
  });

  it("answers unknown routes and methods with 404 in the error shape", async () => {
    for (const [method, path] of [
      ["GET", "/nope"],
      ["GET", "/search"],
      ["DELETE", "/usage"],
    ]) {
      const r = await h.call(method, path, {});
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ ok: false, error: "Not Found", code: "PLB_ROUTE_NOT_FOUND" });
    }
  });

  it("answers an oversized body with 400, not 413", async () => {
    const r = await h.post("/extract", { url: "https://example.com", prompt: "x".repeat(2 * 1024 * 1024) });
    expect(r.status).toBe(400);
    expect((r.body as { code: string }).code).toBe("PLB_BODY_TOO_LARGE");
  });

  it("charges nothing for any rejected call", async () => {
    const before = await h.balance();
    await h.call("POST", "/search", { raw: "{", headers: { "content-type": "application/json" } });
    await h.post("/search", { query: "" });
    await h.post("/extract", { url: "https://example.com", extra: 1 });
    await h.post("/trending", { search_service: "myspace" });
    expect(await h.balance()).toBe(before);
  });
});
