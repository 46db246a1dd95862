import { createAjv } from "@plumbline-kit/contract/validators";
import { unwrapResponseFormat } from "@plumbline-kit/platform/response-format";
import { describe, expect, it } from "vitest";
import { contract, ctx, engines, ok, SEEDS } from "../test/engine-fixture.ts";
import { RESPONSE_SCHEMAS } from "../test/extract-schemas.ts";

const URL_ = "https://shop.example.com/products/espresso-machine";
const extract = (response_format?: unknown, seed = 1, v: "normal" | "max" = "normal", url = URL_) =>
  engines.extract({ url, ...(response_format ? { response_format } : {}) } as never, ctx(seed, v));
const wrap = (schema: unknown) => ({ type: "json_schema", json_schema: { name: "out", strict: true, schema } });

function validator(schema: Record<string, unknown>) {
  const { $schema, ...body } = schema;
  const validate = createAjv().compile(body);
  return (value: unknown) => (validate(value) ? null : validate.errors);
}

describe("unwrapResponseFormat (D-extract-response-format)", () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  it("accepts a plain JSON Schema as it is", () => expect(unwrapResponseFormat(schema)).toBe(schema));
  it("unwraps the OpenAI-style wrapper", () => expect(unwrapResponseFormat(wrap(schema))).toBe(schema));
  it("unwraps the flat Responses-API form", () => {
    expect(unwrapResponseFormat({ type: "json_schema", name: "x", schema })).toBe(schema);
  });
  it("reads json_object as any object", () =>
    expect(unwrapResponseFormat({ type: "json_object" })).toEqual({ type: "object" }));
  it("names no schema for text, junk or a wrapper without one", () => {
    for (const rf of [
      undefined,
      null,
      "x",
      [schema],
      { type: "text" },
      { type: "json_schema" },
      { type: "json_schema", json_schema: { name: "n" } },
    ]) {
      expect(unwrapResponseFormat(rf)).toBeNull();
    }
  });
});

describe("synthetic extract", () => {
  it("answers the page's main facts without a response_format", async () => {
    const body = ok(await extract());
    expect(contract.validators.checkResponse("extract", 200, "application/json", body)).toBeNull();
    expect(body).toMatchObject({ success: true, extractParameters: { url: URL_ } });
    expect(body.results).toEqual({ title: "Espresso Machine", description: expect.any(String), url: URL_ });
  });

  it(`generates results valid against ${Object.keys(RESPONSE_SCHEMAS).length} schemas, plain and wrapped, in both modes`, async () => {
    expect(Object.keys(RESPONSE_SCHEMAS).length).toBeGreaterThanOrEqual(20);
    for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) {
      const check = validator(schema);
      for (const seed of SEEDS.slice(0, 8)) {
        for (const [rf, v] of [
          [schema, "normal"],
          [wrap(schema), "max"],
        ] as const) {
          const body = ok(await extract(rf, seed, v));
          expect(contract.validators.checkResponse("extract", 200, "application/json", body)).toBeNull();
          expect({ name, seed, errors: check(body.results) }).toEqual({ name, seed, errors: null });
        }
      }
    }
  });

  it("gives realistic values named by their properties", async () => {
    const body = ok(await extract(RESPONSE_SCHEMAS.article));
    expect(body.results).toMatchObject({
      title: "Espresso Machine",
      published: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("answers json_object with an object", async () => {
    const r = ok(await extract({ type: "json_object" })).results;
    expect(typeof r === "object" && r !== null && !Array.isArray(r)).toBe(true);
  });

  it("is deterministic per seed and request, and varies with the seed", async () => {
    const rf = RESPONSE_SCHEMAS.product;
    expect(ok(await extract(rf, 4))).toStrictEqual(ok(await extract(rf, 4)));
    expect(ok(await extract(rf, 4))).not.toStrictEqual(ok(await extract(rf, 5)));
  });

  it("fails as PLB_UPSTREAM_FAILED when no value satisfies the schema", async () => {
    expect(await extract({ not: {} })).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(await extract({ type: "string", pattern: "^(?=a)b$" })).toMatchObject({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
    });
  });

  it("reports a failing target as PLB_UPSTREAM_FAILED (extract lists no 404 or 410)", async () => {
    for (const s of [404, 410, 500, 502]) {
      const r = await extract(undefined, 1, "normal", `https://example.com/status/${s}`);
      expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    }
  });
});
