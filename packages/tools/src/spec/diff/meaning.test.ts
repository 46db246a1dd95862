// Documents are compared by meaning, not text: reordered keys, a schema moved into components (or inlined), YAML
// reformatted or rewritten as JSON, OpenAPI 3.0's `nullable` for 3.1's type list: no change. A recursive schema
// is compared without unrolling it, and each change carries its pointers and REVISION's line.
import { readFileSync } from "node:fs";
import { SPEC_PATH } from "@plumbline-kit/contract/document";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { diffSpecs } from "./diff-specs.ts";
import { specSourceFromText } from "./spec-source.ts";
import { at, baseDocument, type Doc, source } from "./test/fixture-document.ts";

function reversedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reversedKeys(x)]),
    );
  }
  return v;
}

/** Every `$ref` to `#/components/schemas/<name>` replaced by the schema itself (one level). */
function inlined(doc: Doc, name: string): Doc {
  const schema = at(doc, `/components/schemas/${name}`);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const o = v as Doc;
      if (o.$ref === `#/components/schemas/${name}`) return structuredClone(schema);
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  const out = walk(doc) as Doc;
  delete at(out, "/components/schemas")[name];
  return out;
}

const changesOf = async (a: Doc, b: Doc) => (await diffSpecs(source(a, "a.yaml"), source(b, "b.yaml"))).changes;

describe("spec diff compares by meaning", () => {
  it("keys reordered at every level: no change", async () => {
    expect(await changesOf(baseDocument(), reversedKeys(baseDocument()) as Doc)).toEqual([]);
  });

  it("a schema moved into components, and a component inlined: no change", async () => {
    const moved = baseDocument();
    const body = at(moved, "/paths/~1crawl/post/requestBody/content/application~1json");
    at(moved, "/components/schemas").CrawlRequest = body.schema;
    body.schema = { $ref: "#/components/schemas/CrawlRequest" };
    expect(await changesOf(baseDocument(), moved)).toEqual([]);
    expect(await changesOf(baseDocument(), inlined(baseDocument(), "ApiError"))).toEqual([]);
  });

  it("a $ref wrapped in allOf, or given a description beside it (3.1): no change", async () => {
    const wrapped = baseDocument();
    at(wrapped, "/components/schemas/SearchResponse/properties").searchParameters = {
      allOf: [{ $ref: "#/components/schemas/SearchParameters" }],
      description: "the parameters echoed",
    };
    expect(await changesOf(baseDocument(), wrapped)).toEqual([]);
  });

  it("YAML reformatted (flow style) or written as JSON: no change", async () => {
    const doc = baseDocument();
    const flow = specSourceFromText(stringify(doc, { collectionStyle: "flow" }), "flow.yaml");
    const json = specSourceFromText(JSON.stringify(doc, null, 1), "doc.json");
    expect((await diffSpecs(flow, json)).changes).toEqual([]);
  });

  it("a path parameter renamed (in the template and its definition): no change", async () => {
    const renamed = baseDocument();
    const paths = at(renamed, "/paths");
    const item = paths["/deepcrawl/status/{taskId}"] as Doc;
    delete paths["/deepcrawl/status/{taskId}"];
    paths["/deepcrawl/status/{id}"] = item;
    at(item, "/get/parameters/0").name = "id";
    expect(await changesOf(baseDocument(), renamed)).toEqual([]);
  });

  it("OpenAPI 3.0 `nullable: true` and 3.1 `type: [string, null]` mean the same", async () => {
    const v30 = baseDocument();
    v30.openapi = "3.0.3";
    at(v30, "/components/schemas/SearchResult/properties").snippet = { type: "string", nullable: true };
    const v31 = baseDocument();
    at(v31, "/components/schemas/SearchResult/properties").snippet = { type: ["string", "null"] };
    expect(await changesOf(v30, v31)).toEqual([]);
  });

  it("a change in an error body names its statuses; a schema shared by several is one change naming each", async () => {
    const revision = baseDocument();
    delete at(revision, "/components/schemas/ApiError/properties").message;
    const changes = await changesOf(baseDocument(), revision);
    expect(changes.map((c) => [c.rule, c.operations, c.message])).toEqual([
      [
        "response-optional-property-removed",
        ["POST /search", "POST /crawl"],
        "a client reading `message` never finds it now (in the 400, 429 responses)",
      ],
    ]);
  });

  it("a binary body said the 3.0 way (format: binary), the 3.1 way (contentMediaType, contentEncoding) or not at all: no change", async () => {
    const image = (schema: unknown) => {
      const d = baseDocument();
      at(d, "/paths/~1crawl/post/responses/200").content = { "image/png": schema === undefined ? {} : { schema } };
      return d;
    };
    const v31 = image({ type: "string", contentMediaType: "image/png", contentEncoding: "binary" });
    expect(await changesOf(v31, image({ type: "string", format: "binary" }))).toEqual([]);
    expect(await changesOf(image({ type: "string", format: "binary" }), image(undefined))).toEqual([]);
    // bytes of another type, or a schema that restricts more, are still compared
    const other = await changesOf(v31, image({ type: "string", contentMediaType: "image/jpeg" }));
    expect(other.map((c) => c.message)).toEqual([
      'the 200 body: `contentEncoding` changed ("binary" → absent)',
      'the 200 body: `contentMediaType` changed ("image/png" → "image/jpeg")',
    ]);
    const bounded = await changesOf(v31, image({ type: "string", format: "binary", maxLength: 10 }));
    expect(bounded.map((c) => c.rule).sort()).toEqual([
      "response-bound-tightened",
      "response-format-changed",
      "response-schema-changed",
      "response-schema-changed",
    ]);
  });

  it("the project's document rewritten as JSON with its keys reversed, and with SearchResult inlined: no change", async () => {
    const text = readFileSync(SPEC_PATH, "utf8");
    const doc = parse(text) as Doc;
    const yaml = specSourceFromText(text, "spec/openapi.yaml");
    const json = specSourceFromText(JSON.stringify(reversedKeys(doc)), "openapi.json");
    expect((await diffSpecs(yaml, json)).changes).toEqual([]);
    const inline = specSourceFromText(stringify(inlined(doc, "SearchResult")), "inlined.yaml");
    expect((await diffSpecs(yaml, inline)).changes).toEqual([]);
  });

  it("a recursive schema: a change inside it is found once, and the comparison ends", async () => {
    const revision = baseDocument();
    at(revision, "/components/schemas/SearchResult/properties/title").type = "integer";
    const changes = await changesOf(baseDocument(), revision);
    expect(changes.map((c) => [c.rule, c.message])).toEqual([
      ["response-type-changed", "a client may now receive `results[].title` as integer, not string"],
    ]);
  });
});

describe("spec diff says where and why", () => {
  it("a tightened bound: the client's reason, both pointers and REVISION's line", async () => {
    const revision = baseDocument();
    at(revision, "/components/schemas/SearchParameters/properties/max_results").maximum = 40;
    const text = stringify(revision);
    const result = await diffSpecs(source(baseDocument(), "base.yaml"), specSourceFromText(text, "rev.yaml"));
    const request = result.changes.find((c) => c.rule === "request-bound-tightened");
    const pointer = "/components/schemas/SearchParameters/properties/max_results/maximum";
    const line = text.split("\n").findIndex((l) => l.trim() === "maximum: 40") + 1;
    expect(request).toEqual({
      rule: "request-bound-tightened",
      level: "breaking",
      operations: ["POST /search"],
      base: { pointer, line: expect.any(Number) },
      revision: { pointer, line },
      message: "a client sending `max_results: 41` is now refused (maximum 50 → 40)",
    });
    const echo = result.changes.find((c) => c.rule === "response-bound-tightened");
    expect(echo?.message).toBe("`searchParameters.max_results` now stays within a tighter bound (maximum 50 → 40)");
  });

  it("a removed enum value names the value a client sends; a removed required response field names the field", async () => {
    const revision = baseDocument();
    at(revision, "/components/schemas/SearchParameters/properties/search_service").enum = ["google"];
    delete at(revision, "/components/schemas/SearchResult/properties").link;
    at(revision, "/components/schemas/SearchResult").required = ["title"];
    const messages = (await changesOf(baseDocument(), revision)).map((c) => `${c.rule}: ${c.message}`);
    expect(messages).toEqual([
      'request-enum-value-removed: a client sending `search_service`: "bing" is now refused',
      "response-required-property-removed: a client reading `results[].link` no longer finds it",
      'response-enum-value-removed: `searchParameters.search_service` is never "bing" now',
    ]);
  });
});
