// Checks spec/openapi.yaml fact by fact against the interface's own tables (issue 2 "Done when"): the price table,
// every field table (type, required, bounds, defaults, enums) and every endpoint's listed statuses.
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { decidedEnumValues } from "./bounds.ts";
import { type Contract, type JsonSchema, loadContract } from "./index.ts";

const here = new URL(".", import.meta.url);
const INTERFACE = readFileSync(new URL("./contract/interface-spec.md", here), "utf8");

let c: Contract;
beforeAll(async () => {
  c = await loadContract();
});

const schema = (name: string): JsonSchema => c.document.components?.schemas?.[name] as JsonSchema;

/** The rows of the first markdown table after a heading line that starts with `heading`. */
function tableAfter(heading: string): string[][] {
  const lines = INTERFACE.split("\n");
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) throw new Error(`no heading ${heading}`);
  const rows: string[][] = [];
  let inTable = false;
  // a heading that is itself the table's header row starts the table
  for (const line of lines.slice(heading.startsWith("|") ? start : start + 1)) {
    if (line.startsWith("|")) {
      inTable = true;
      rows.push(
        line
          .slice(1, -1)
          .split("|")
          .map((cell) => cell.trim()),
      );
    } else if (inTable || line.startsWith("#")) break;
  }
  return rows.slice(2); // header and separator
}

/** Resolves `viewport.width` against an object schema. */
function propertyAt(root: JsonSchema, dotted: string): JsonSchema | undefined {
  return dotted.split(".").reduce<JsonSchema | undefined>((s, k) => s?.properties?.[k], root);
}

const TYPE_WORDS: Record<string, string> = {
  string: "string",
  "string enum": "string",
  "string (URI)": "string",
  integer: "integer",
  boolean: "boolean",
  number: "number",
  object: "object",
  "array of string": "array",
};

/** Checks one field-table row (| Field | Type | Required | Rules |) against the schema. */
function checkFieldRow(root: JsonSchema, row: string[]) {
  const [field, type, required, rules] = row;
  const p = propertyAt(root, field);
  expect(p, `${field} is in the schema`).toBeDefined();
  if (!p) return;
  if (TYPE_WORDS[type]) expect(p.type, `${field} type`).toBe(TYPE_WORDS[type]);
  if (type.includes("URI")) expect(p.format).toBe("uri");
  if (!field.includes("."))
    expect(root.required?.includes(field) ?? false, `${field} required`).toBe(required === "yes");
  const range = rules.match(/(?:^|[ (])(\d+)\.\.(\d+)/);
  if (range) {
    const [lo, hi] = [Number(range[1]), Number(range[2])];
    if (p.type === "string") expect([p.minLength, p.maxLength], `${field} length`).toEqual([lo, hi]);
    else expect([p.minimum, p.maximum], `${field} range`).toEqual([lo, hi]);
  }
  const minLength = rules.match(/minLength (\d+)/);
  if (minLength) expect(p.minLength).toBe(Number(minLength[1]));
  const maxLength = rules.match(/maxLength (\d+)/);
  if (maxLength) expect(p.maxLength).toBe(Number(maxLength[1]));
  const def = rules.match(/default ([\w.]+)/);
  if (def && def[1] !== "empty" && p.type !== "object") {
    const want = def[1] === "true" ? true : def[1] === "false" ? false : /^\d/.test(def[1]) ? Number(def[1]) : def[1];
    expect(p.default, `${field} default`).toEqual(want);
  }
  if (rules.includes("default empty")) expect(p.default).toEqual([]);
  if (rules.includes("no default")) expect(p.default).toBeUndefined();
  if (type === "string enum") {
    const listed = rules
      .split(";")[0]
      .split(",")
      .map((v) => v.trim())
      .map((v) => (v === "empty string" ? "" : v));
    // values a decision adds to the interface's list are named as such (x-decided-enum, D-search-engine-values)
    const decided = decidedEnumValues(p)?.values ?? [];
    expect(new Set(p.enum?.filter((v) => !decided.includes(v))), `${field} enum`).toEqual(new Set(listed));
  }
}

describe("interface tables → spec/openapi.yaml", () => {
  it("keeps its copy of the interface identical to ../shared where that exists", () => {
    const shared = new URL("../../shared/interface-spec.md", here);
    if (!existsSync(shared)) return; // a clone without the shared folder checks against the committed copy only
    expect(readFileSync(shared, "utf8")).toBe(INTERFACE);
  });

  it("prices every operation as the credit table says", () => {
    const rows = tableAfter("| Operation | Credits |");
    expect(rows.length).toBe(11);
    for (const [operation, credits, price] of rows) {
      const [method, path] = operation.split(" ");
      const op = c.operations.find((o) => o.method === method.toLowerCase() && o.path === path);
      expect(op, operation).toBeDefined();
      if (credits.startsWith("0")) {
        expect(op?.pricing, operation).toBeNull();
        expect(price).toBe("none declared");
      } else {
        expect(op?.pricing).toMatchObject({ credits: Number(credits), price, protocol: "mpp" });
      }
    }
  });

  it.each([
    ["### Search parameters", "SearchParameters"],
    ["### Search result", "SearchResult"],
    ["### Crawl result", "CrawlResult"],
    ["### Extract response", "ExtractResponse"],
    ["Status response (`DeepcrawlStatusResponse`)", "DeepcrawlStatusResponse"],
    ["### Usage response", "UsageResponse"],
    ["Request body: one object or a non-empty array (minItems 1) of objects", "CrawlRequest"],
    ["Renders a public page as an image.", "ScreenshotRequest"],
  ])("encodes every row of the table after %s in %s", (heading, name) => {
    const rows = tableAfter(heading);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      if (row.length === 4) checkFieldRow(schema(name), row);
      else {
        // response tables: | Field | Type | Required |
        const [field, , required] = row;
        expect(schema(name).properties?.[field], field).toBeDefined();
        expect(schema(name).required?.includes(field) ?? false, `${name}.${field} required`).toBe(required === "yes");
      }
    }
  });

  it("encodes the request bodies the interface states in prose", () => {
    const sitemap = schema("SitemapRequest");
    expect(sitemap.required).toEqual(["url"]);
    expect(sitemap.properties?.type).toMatchObject({ enum: ["sitemap", "all"], default: "sitemap" });
    const trending = schema("TrendingRequest");
    expect(trending.required).toEqual(["search_service"]);
    expect(trending.properties?.search_service).toMatchObject({ type: "string", minLength: 1 });
    expect(trending.properties?.max_results).toMatchObject({ type: "integer", minimum: 1 });
    expect(trending.properties?.max_results.maximum).toBeUndefined(); // "no upper bound … given"
    const extract = schema("ExtractRequest");
    expect(Object.keys(extract.properties ?? {})).toEqual(["url", "prompt", "response_format"]);
    expect(extract.required).toEqual(["url"]);
    const deepcrawl = schema("DeepcrawlRequest");
    expect(deepcrawl.properties?.type.enum).toEqual(["sitemap", "all"]);
    expect(deepcrawl.required).toEqual(["url"]);
    for (const name of ["SitemapRequest", "TrendingRequest", "ExtractRequest", "DeepcrawlRequest"]) {
      expect(schema(name).additionalProperties, name).toBe(false);
    }
    const status = c.operation("deepcrawlStatus").parameters[0];
    expect(status).toMatchObject({ name: "taskId", in: "path", required: true, schema: { minLength: 1 } });
    const period = c.operation("usage").parameters[0];
    expect(period).toMatchObject({ name: "period", in: "query", required: false });
    expect(period.schema.enum).toEqual(["day", "week", "month", "year"]);
  });

  it("encodes the response resources the interface states in prose", () => {
    expect(schema("SitemapResponse").required).toEqual(["links"]);
    expect(schema("TrendingResult").required).toEqual(["title", "url"]);
    expect(schema("TrendingResult").properties?.description.type).toEqual(["string", "null"]);
    expect(schema("TrendingResponse").required).toEqual(["trendingParameters", "results"]);
    expect(schema("HealthResponse").required).toEqual(["status"]);
    expect(schema("HealthResponse").properties?.timestamp.format).toBe("date-time");
    expect(schema("BatchSummary").required).toEqual(["total", "successful", "failed", "totalCost"]);
    expect(schema("SearchBatchEntry").required).toEqual(["success", "cost"]);
    expect(schema("BatchEntryError").required).toEqual(["message", "statusCode"]);
    expect(schema("CrawlResponse").required).toEqual(["crawlParameters", "results"]);
    expect(schema("SearchResponse").required).toEqual(["searchParameters", "results"]);
    expect(schema("SearchResponse").properties?.images.items?.format).toBe("uri");
  });

  it("lists every member of the error object table in ApiError", () => {
    const rows = tableAfter("Error body (`ApiError`");
    expect(rows.map((r) => r[0])).toEqual(["ok", "error", "message", "errors", "type", "title", "status", "detail"]);
    const apiError = schema("ApiError");
    for (const [field, type] of rows) {
      const p = apiError.properties?.[field];
      expect(p, field).toBeDefined();
      expect(String(type)).toContain(String(p?.type));
    }
    expect(apiError.additionalProperties).toBe(true);
    expect(Object.keys(schema("ApiErrorField").properties ?? {})).toEqual(["field", "message", "code"]);
  });

  it("derives news parameters from search parameters as the interface says", () => {
    const search = schema("SearchParameters");
    const news = schema("NewsParameters");
    expect(Object.keys(news.properties ?? {}).sort()).toEqual(
      Object.keys(search.properties ?? {})
        .filter((k) => k !== "page")
        .sort(),
    );
    expect(new Set(news.properties?.search_service.enum)).toEqual(
      new Set(["google", "bing", "duckduckgo", "yahoo", "hackernews", "", "reuters"]),
    );
    expect(news.additionalProperties).toBe(false);
  });

  it("rejects additional properties on every request object, the viewport included", () => {
    for (const op of c.contractOperations.filter((o) => o.requestSchema)) {
      const branches = op.requestSchema?.oneOf ?? [op.requestSchema as JsonSchema];
      const object = branches.find((b) => b.type === "object") as JsonSchema;
      expect(object.additionalProperties, op.operationId).toBe(false);
    }
    expect(schema("ScreenshotViewport").additionalProperties).toBe(false);
  });

  it("lists exactly the statuses each endpoint section names", () => {
    const sections = INTERFACE.split(/\n### /).filter((s) => /^(GET|POST) \//.test(s));
    expect(sections.length).toBe(11);
    for (const section of sections) {
      const [method, path] = section.split("\n")[0].split(" ");
      const listed = section.match(/Error status(?:es)?: ([\d, ]+)/)?.[1];
      expect(listed, `${method} ${path} names its statuses`).toBeDefined();
      const success = section.match(/HTTP 202/) ? 202 : 200;
      const expected = [success, ...(listed ?? "").split(",").map((s) => Number(s.trim()))].sort((a, b) => a - b);
      const op = c.operations.find((o) => o.method === method.toLowerCase() && o.path === path);
      // D-status-auth: status polling takes the Bearer credential every operation but /health declares, and its 401
      if (op?.operationId === "deepcrawlStatus") expected.splice(expected.indexOf(404), 0, 401);
      expect(op?.statuses, `${method} ${path}`).toEqual(expected);
    }
  });

  it("labels each status as the errors table does, 402 as problem+json", () => {
    for (const [status, label] of tableAfter("| Status | Label |").map((r) => [Number(r[0]), r[1]] as const)) {
      for (const op of c.contractOperations) {
        const res = op.responses.get(status);
        if (!res) continue;
        const types = Object.keys(res.content);
        if (op.operationId === "deepcrawlStatus" && status === 404) continue; // D-status-not-found
        expect(types, `${op.operationId} ${status} (${label})`).toEqual(
          status === 402 ? ["application/problem+json"] : ["application/json"],
        );
      }
    }
  });

  it("declares Bearer on every operation but health, and an MPP price on every paid one", () => {
    for (const op of c.contractOperations) {
      if (op.path === "/health") expect(op.auth).toBe("none");
      else expect(op.auth, op.operationId).not.toBe("none");
    }
    expect(c.document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("answers screenshot with the three image types, deepcrawl with 202 queued", () => {
    expect(Object.keys(c.operation("screenshot").responses.get(200)?.content ?? {})).toEqual([
      "image/png",
      "image/jpeg",
      "image/webp",
    ]);
    const accepted = schema("DeepcrawlAcceptedResponse");
    expect(accepted.properties?.status.const).toBe("queued");
    expect(new Set(schema("DeepcrawlStatusResponse").properties?.status.enum)).toEqual(
      new Set(["queued", "waiting", "processing", "completed", "failed", "not_found"]),
    );
  });

  it("bounds the batch bodies of search, news and crawl at 1..50 (D-batch-limits)", () => {
    for (const id of ["search", "news", "crawl"]) {
      const array = c.operation(id).requestSchema?.oneOf?.find((b) => b.type === "array");
      expect([array?.minItems, array?.maxItems], id).toEqual([1, 50]);
      expect(c.operation(id).batchMax).toBe(50);
    }
  });

  it("states the crawl_results surcharge on search and news", () => {
    for (const id of ["search", "news"]) {
      expect(c.operation(id).pricing?.surcharge).toMatchObject({
        parameter: "crawl_results",
        perUnitOperation: "crawl",
      });
    }
    expect(c.prices.requestCredits("search", { query: "q", crawl_results: 3 })).toBe(4);
    expect(c.prices.requestCredits("news", [{ query: "a" }, { query: "b", crawl_results: 2 }])).toBe(4);
  });
});
