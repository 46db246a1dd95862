// Every rule of `spec diff` with its own pair of documents and the exact verdict: the list of changes (rule, level,
// operations) the pair gives, nothing more. The table is typed by rule id, so a rule without a case does not
// compile. Where a change also shows elsewhere (SearchParameters is echoed in the search response), the verdict
// says so.
import { describe, expect, it } from "vitest";
import { diffSpecs } from "./diff-specs.ts";
import { RULES, type RuleId } from "./rules.ts";
import { at, baseDocument, type Doc, source } from "./test/fixture-document.ts";

type Verdict = Array<[RuleId, string]>;
interface Case {
  base?: (d: Doc) => void;
  revision: (d: Doc) => void;
  verdict: Verdict;
}

const SP = "/components/schemas/SearchParameters/properties";
const SR = "/components/schemas/SearchResult";
const CRAWL_BODY = "/paths/~1crawl/post/requestBody/content/application~1json/schema";
const CRAWL_200 = "/paths/~1crawl/post/responses/200";
const SEARCH = "/paths/~1search/post";
const S = "POST /search";
const C = "POST /crawl";
const okResponse = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
const errorExample = (code: string) => ({ value: { ok: false, code } });

const CASES: Record<RuleId, Case> = {
  "path-added": {
    revision: (d) => {
      at(d, "/paths/~1news").post = { operationId: "news", responses: { "200": okResponse } };
    },
    verdict: [["path-added", "POST /news"]],
  },
  "path-removed": {
    revision: (d) => {
      delete at(d, "/paths")["/deepcrawl/status/{taskId}"];
    },
    verdict: [["path-removed", "GET /deepcrawl/status/{taskId}"]],
  },
  "operation-added": {
    revision: (d) => {
      at(d, "/paths/~1crawl").get = { operationId: "crawlGet", responses: { "200": okResponse } };
    },
    verdict: [["operation-added", "GET /crawl"]],
  },
  "operation-removed": {
    base: (d) => {
      at(d, "/paths/~1deepcrawl~1status~1{taskId}").delete = {
        operationId: "cancel",
        responses: { "200": okResponse },
      };
    },
    revision: () => {},
    verdict: [["operation-removed", "DELETE /deepcrawl/status/{taskId}"]],
  },
  "operation-moved": {
    revision: (d) => {
      const paths = at(d, "/paths");
      paths["/v2/crawl"] = paths["/crawl"];
      delete paths["/crawl"];
    },
    verdict: [["operation-moved", C]],
  },
  "operation-id-changed": {
    revision: (d) => {
      at(d, SEARCH).operationId = "webSearch";
    },
    verdict: [["operation-id-changed", S]],
  },
  "request-parameter-added": {
    revision: (d) => {
      (at(d, SEARCH).parameters as Doc[]).push({ name: "debug", in: "query", schema: { type: "boolean" } });
    },
    verdict: [["request-parameter-added", S]],
  },
  "request-required-parameter-added": {
    revision: (d) => {
      (at(d, SEARCH).parameters as Doc[]).push({
        name: "region",
        in: "query",
        required: true,
        schema: { type: "string" },
      });
    },
    verdict: [["request-required-parameter-added", S]],
  },
  "request-parameter-removed": {
    revision: (d) => {
      at(d, SEARCH).parameters = [];
    },
    verdict: [["request-parameter-removed", S]],
  },
  "request-parameter-became-required": {
    revision: (d) => {
      at(d, `${SEARCH}/parameters/0`).required = true;
    },
    verdict: [["request-parameter-became-required", S]],
  },
  "request-parameter-became-optional": {
    base: (d) => {
      at(d, `${SEARCH}/parameters/0`).required = true;
    },
    revision: () => {},
    verdict: [["request-parameter-became-optional", S]],
  },
  "request-body-added": {
    revision: (d) => {
      at(d, "/paths/~1health/get").requestBody = { content: { "application/json": { schema: { type: "object" } } } };
    },
    verdict: [["request-body-added", "GET /health"]],
  },
  "request-required-body-added": {
    revision: (d) => {
      at(d, "/paths/~1health/get").requestBody = {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      };
    },
    verdict: [["request-required-body-added", "GET /health"]],
  },
  "request-body-removed": {
    revision: (d) => {
      delete at(d, "/paths/~1crawl/post").requestBody;
    },
    verdict: [["request-body-removed", C]],
  },
  "request-body-became-required": {
    base: (d) => {
      at(d, "/paths/~1crawl/post/requestBody").required = false;
    },
    revision: () => {},
    verdict: [["request-body-became-required", C]],
  },
  "request-body-became-optional": {
    revision: (d) => {
      at(d, "/paths/~1crawl/post/requestBody").required = false;
    },
    verdict: [["request-body-became-optional", C]],
  },
  "request-media-type-added": {
    revision: (d) => {
      const content = at(d, "/paths/~1crawl/post/requestBody/content");
      content["application/x-www-form-urlencoded"] = structuredClone(content["application/json"]);
    },
    verdict: [["request-media-type-added", C]],
  },
  "request-media-type-removed": {
    base: (d) => {
      const content = at(d, "/paths/~1crawl/post/requestBody/content");
      content["application/x-www-form-urlencoded"] = structuredClone(content["application/json"]);
    },
    revision: () => {},
    verdict: [["request-media-type-removed", C]],
  },
  "request-body-form-added": {
    base: (d) => {
      at(d, `${SEARCH}/requestBody/content/application~1json`).schema = {
        $ref: "#/components/schemas/SearchParameters",
      };
    },
    revision: () => {},
    verdict: [["request-body-form-added", S]],
  },
  "request-body-form-removed": {
    revision: (d) => {
      at(d, `${SEARCH}/requestBody/content/application~1json`).schema = {
        $ref: "#/components/schemas/SearchParameters",
      };
    },
    verdict: [["request-body-form-removed", S]],
  },
  "request-alternative-added": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties`).enableFallback = {
        oneOf: [{ type: "boolean" }, { type: "string", enum: ["auto"] }],
      };
    },
    verdict: [["request-alternative-added", C]],
  },
  "request-alternative-removed": {
    base: (d) => {
      at(d, `${CRAWL_BODY}/properties`).enableFallback = {
        oneOf: [{ type: "boolean" }, { type: "string", enum: ["auto"] }],
      };
    },
    revision: () => {},
    verdict: [["request-alternative-removed", C]],
  },
  "request-property-added": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties`).timeout_ms = { type: "integer" };
    },
    verdict: [["request-property-added", C]],
  },
  "request-required-property-added": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties`).mode = { type: "string" };
      (at(d, CRAWL_BODY).required as string[]).push("mode");
    },
    verdict: [["request-required-property-added", C]],
  },
  "request-property-removed": {
    revision: (d) => {
      delete at(d, `${CRAWL_BODY}/properties`).enableFallback;
    },
    verdict: [["request-property-removed", C]],
  },
  "request-property-became-required": {
    revision: (d) => {
      (at(d, CRAWL_BODY).required as string[]).push("enableFallback");
    },
    verdict: [["request-property-became-required", C]],
  },
  "request-property-became-optional": {
    base: (d) => {
      (at(d, CRAWL_BODY).required as string[]).push("enableFallback");
    },
    revision: () => {},
    verdict: [["request-property-became-optional", C]],
  },
  "request-type-changed": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties/enableFallback`).type = "string";
    },
    verdict: [["request-type-changed", C]],
  },
  "request-type-narrowed": {
    base: (d) => {
      at(d, `${CRAWL_BODY}/properties/enableFallback`).type = ["boolean", "string"];
    },
    revision: () => {},
    verdict: [["request-type-narrowed", C]],
  },
  "request-type-widened": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties/enableFallback`).type = ["boolean", "string"];
    },
    verdict: [["request-type-widened", C]],
  },
  "request-nullable-removed": {
    base: (d) => {
      at(d, `${CRAWL_BODY}/properties/enableFallback`).type = ["boolean", "null"];
    },
    revision: () => {},
    verdict: [["request-nullable-removed", C]],
  },
  "request-nullable-added": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties/enableFallback`).type = ["boolean", "null"];
    },
    verdict: [["request-nullable-added", C]],
  },
  // SearchParameters is echoed in the response (searchParameters): its enum changes show there too
  "request-enum-value-removed": {
    revision: (d) => {
      at(d, `${SP}/search_service`).enum = ["google"];
    },
    verdict: [
      ["request-enum-value-removed", S],
      ["response-enum-value-removed", S],
    ],
  },
  "request-enum-value-added": {
    revision: (d) => {
      at(d, `${SP}/search_service`).enum = ["google", "bing", "duckduckgo"];
    },
    verdict: [
      ["response-enum-value-added", S],
      ["request-enum-value-added", S],
    ],
  },
  "request-bound-tightened": {
    revision: (d) => {
      at(d, `${SP}/max_results`).maximum = 40;
    },
    verdict: [
      ["request-bound-tightened", S],
      ["response-bound-tightened", S],
    ],
  },
  "request-bound-loosened": {
    revision: (d) => {
      at(d, `${SP}/query`).maxLength = 1000;
    },
    verdict: [
      ["response-bound-loosened", S],
      ["request-bound-loosened", S],
    ],
  },
  "request-pattern-changed": {
    revision: (d) => {
      at(d, `${SP}/site`).pattern = "^[a-z0-9.]+$";
    },
    verdict: [
      ["request-pattern-changed", S],
      ["response-pattern-changed", S],
    ],
  },
  "request-format-changed": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties/url`).format = "hostname";
    },
    verdict: [["request-format-changed", C]],
  },
  "request-additional-properties-closed": {
    revision: (d) => {
      at(d, CRAWL_BODY).additionalProperties = false;
    },
    verdict: [["request-additional-properties-closed", C]],
  },
  "request-additional-properties-opened": {
    revision: (d) => {
      delete at(d, "/components/schemas/SearchParameters").additionalProperties;
    },
    verdict: [
      ["request-additional-properties-opened", S],
      ["response-additional-properties-opened", S],
    ],
  },
  "request-default-changed": {
    revision: (d) => {
      at(d, `${SP}/max_results`).default = 10;
    },
    verdict: [["request-default-changed", S]],
  },
  "request-schema-changed": {
    revision: (d) => {
      at(d, `${CRAWL_BODY}/properties/url`).not = { const: "about:blank" };
    },
    verdict: [["request-schema-changed", C]],
  },
  "response-success-status-added": {
    revision: (d) => {
      at(d, "/paths/~1crawl/post/responses")["202"] = okResponse;
    },
    verdict: [["response-success-status-added", C]],
  },
  "response-success-status-removed": {
    base: (d) => {
      at(d, "/paths/~1crawl/post/responses")["202"] = okResponse;
    },
    revision: () => {},
    verdict: [["response-success-status-removed", C]],
  },
  "response-error-status-added": {
    revision: (d) => {
      at(d, "/paths/~1crawl/post/responses")["429"] = { $ref: "#/components/responses/TooManyRequests" };
    },
    verdict: [["response-error-status-added", C]],
  },
  "response-error-status-removed": {
    revision: (d) => {
      delete at(d, `${SEARCH}/responses`)["429"];
    },
    verdict: [["response-error-status-removed", S]],
  },
  "response-media-type-added": {
    revision: (d) => {
      at(d, `${CRAWL_200}/content`)["text/markdown"] = { schema: { type: "string" } };
    },
    verdict: [["response-media-type-added", C]],
  },
  "response-media-type-removed": {
    base: (d) => {
      at(d, `${CRAWL_200}/content`)["text/markdown"] = { schema: { type: "string" } };
    },
    revision: () => {},
    verdict: [["response-media-type-removed", C]],
  },
  "response-header-added": {
    revision: (d) => {
      at(d, `${SEARCH}/responses/200/headers`)["x-credits"] = { schema: { type: "integer" } };
    },
    verdict: [["response-header-added", S]],
  },
  "response-required-header-removed": {
    revision: (d) => {
      delete at(d, `${SEARCH}/responses/200/headers`)["x-request-id"];
    },
    verdict: [["response-required-header-removed", S]],
  },
  "response-optional-header-removed": {
    revision: (d) => {
      delete at(d, `${SEARCH}/responses/200/headers`).Link;
    },
    verdict: [["response-optional-header-removed", S]],
  },
  "response-header-became-optional": {
    revision: (d) => {
      at(d, `${SEARCH}/responses/200/headers/x-request-id`).required = false;
    },
    verdict: [["response-header-became-optional", S]],
  },
  "response-alternative-added": {
    revision: (d) => {
      const media = at(d, `${CRAWL_200}/content/application~1json`);
      media.schema = { oneOf: [media.schema, { type: "string" }] };
    },
    verdict: [["response-alternative-added", C]],
  },
  "response-alternative-removed": {
    base: (d) => {
      const media = at(d, `${CRAWL_200}/content/application~1json`);
      media.schema = { oneOf: [media.schema, { type: "string" }] };
    },
    revision: () => {},
    verdict: [["response-alternative-removed", C]],
  },
  "response-property-added": {
    revision: (d) => {
      at(d, `${SR}/properties`).date = { type: "string", format: "date" };
    },
    verdict: [["response-property-added", S]],
  },
  "response-required-property-removed": {
    revision: (d) => {
      delete at(d, `${SR}/properties`).title;
      at(d, SR).required = ["link"];
    },
    verdict: [["response-required-property-removed", S]],
  },
  "response-optional-property-removed": {
    revision: (d) => {
      delete at(d, `${SR}/properties`).snippet;
    },
    verdict: [["response-optional-property-removed", S]],
  },
  "response-property-became-optional": {
    revision: (d) => {
      at(d, SR).required = ["title"];
    },
    verdict: [["response-property-became-optional", S]],
  },
  "response-property-became-required": {
    revision: (d) => {
      at(d, SR).required = ["title", "link", "snippet"];
    },
    verdict: [["response-property-became-required", S]],
  },
  "response-type-changed": {
    revision: (d) => {
      at(d, `${SR}/properties/rank`).type = "string";
    },
    verdict: [["response-type-changed", S]],
  },
  "response-type-narrowed": {
    base: (d) => {
      at(d, `${SR}/properties/rank`).type = ["integer", "string"];
    },
    revision: () => {},
    verdict: [["response-type-narrowed", S]],
  },
  "response-nullable-added": {
    revision: (d) => {
      at(d, `${SR}/properties/snippet`).type = ["string", "null"];
    },
    verdict: [["response-nullable-added", S]],
  },
  "response-nullable-removed": {
    base: (d) => {
      at(d, `${SR}/properties/snippet`).type = ["string", "null"];
    },
    revision: () => {},
    verdict: [["response-nullable-removed", S]],
  },
  "response-enum-value-added": {
    revision: (d) => {
      at(
        d,
        "/paths/~1deepcrawl~1status~1{taskId}/get/responses/200/content/application~1json/schema/properties/status",
      ).enum = ["queued", "completed", "failed"];
    },
    verdict: [["response-enum-value-added", "GET /deepcrawl/status/{taskId}"]],
  },
  "response-enum-value-removed": {
    revision: (d) => {
      at(
        d,
        "/paths/~1deepcrawl~1status~1{taskId}/get/responses/200/content/application~1json/schema/properties/status",
      ).enum = ["completed"];
    },
    verdict: [["response-enum-value-removed", "GET /deepcrawl/status/{taskId}"]],
  },
  "response-bound-loosened": {
    revision: (d) => {
      at(d, `${SR}/properties/rank`).maximum = 1000;
    },
    verdict: [["response-bound-loosened", S]],
  },
  "response-bound-tightened": {
    revision: (d) => {
      at(d, `${SR}/properties/rank`).maximum = 10;
    },
    verdict: [["response-bound-tightened", S]],
  },
  "response-pattern-changed": {
    base: (d) => {
      at(d, `${SR}/properties/link`).pattern = "^https?://";
    },
    revision: (d) => {
      at(d, `${SR}/properties/link`).pattern = "^(https?|ftp)://";
    },
    verdict: [["response-pattern-changed", S]],
  },
  "response-format-changed": {
    revision: (d) => {
      at(d, `${SR}/properties/link`).format = "uri-reference";
    },
    verdict: [["response-format-changed", S]],
  },
  "response-additional-properties-opened": {
    base: (d) => {
      at(d, SR).additionalProperties = false;
    },
    revision: () => {},
    verdict: [["response-additional-properties-opened", S]],
  },
  "response-schema-changed": {
    revision: (d) => {
      at(d, `${SR}/properties/title`).contentMediaType = "text/html";
    },
    verdict: [["response-schema-changed", S]],
  },
  "security-required": {
    revision: (d) => {
      delete at(d, "/paths/~1health/get").security;
    },
    verdict: [["security-required", "GET /health"]],
  },
  "security-optional": {
    revision: (d) => {
      at(d, SEARCH).security = [{ bearerAuth: [] }, {}];
    },
    verdict: [["security-optional", S]],
  },
  "security-scheme-added": {
    revision: (d) => {
      at(d, SEARCH).security = [{ bearerAuth: [] }, { apiKey: [] }];
    },
    verdict: [["security-scheme-added", S]],
  },
  "security-scheme-removed": {
    base: (d) => {
      at(d, SEARCH).security = [{ bearerAuth: [] }, { apiKey: [] }];
    },
    revision: () => {},
    verdict: [["security-scheme-removed", S]],
  },
  "security-scheme-changed": {
    revision: (d) => {
      at(d, "/components/securitySchemes").bearerAuth = { type: "apiKey", in: "header", name: "authorization" };
    },
    verdict: [["security-scheme-changed", `${S}, ${C}, GET /deepcrawl/status/{taskId}`]],
  },
  "price-raised": {
    revision: (d) => {
      at(d, `${SEARCH}/x-pricing`).credits = 2;
    },
    verdict: [["price-raised", S]],
  },
  "price-lowered": {
    revision: (d) => {
      at(d, "/paths/~1crawl/post/x-pricing").price = "0.002";
    },
    verdict: [["price-lowered", C]],
  },
  "operation-now-paid": {
    revision: (d) => {
      at(d, "/paths/~1deepcrawl~1status~1{taskId}/get")["x-pricing"] = { credits: 1, price: "0.001", protocol: "mpp" };
    },
    verdict: [["operation-now-paid", "GET /deepcrawl/status/{taskId}"]],
  },
  // the search surcharge is priced in crawls: a free crawl makes crawl_results free too
  "operation-now-free": {
    revision: (d) => {
      delete at(d, "/paths/~1crawl/post")["x-pricing"];
    },
    verdict: [
      ["price-lowered", S],
      ["operation-now-free", C],
    ],
  },
  "payment-protocol-changed": {
    revision: (d) => {
      at(d, "/paths/~1crawl/post/x-pricing").protocol = "x402";
    },
    verdict: [["payment-protocol-changed", C]],
  },
  "rate-limit-tightened": {
    revision: (d) => {
      at(d, "/x-rate-limits").per_account = 100;
    },
    verdict: [["rate-limit-tightened", ""]],
  },
  "rate-limit-loosened": {
    revision: (d) => {
      at(d, "/x-rate-limits/per_operation").crawl = 40;
    },
    verdict: [["rate-limit-loosened", ""]],
  },
  "rate-limit-retry-after-changed": {
    revision: (d) => {
      at(d, "/x-rate-limits").retry_after_seconds = 30;
    },
    verdict: [["rate-limit-retry-after-changed", ""]],
  },
  "error-code-removed": {
    revision: (d) => {
      delete at(d, "/components/responses/BadRequest/content/application~1json/examples/bad/value").code;
    },
    verdict: [["error-code-removed", `${S}, ${C}`]],
  },
  "error-code-status-changed": {
    base: (d) => {
      const responses = at(d, "/paths/~1crawl/post/responses");
      responses["400"] = {
        description: "bad",
        content: {
          "application/json": { examples: { a: errorExample("PLB_BAD_VALUE"), b: errorExample("PLB_TARGET_GONE") } },
        },
      };
      responses["404"] = {
        description: "gone",
        content: { "application/json": { examples: { a: errorExample("PLB_TARGET_NOT_FOUND") } } },
      };
    },
    revision: (d) => {
      const responses = at(d, "/paths/~1crawl/post/responses");
      responses["400"] = {
        description: "bad",
        content: { "application/json": { examples: { a: errorExample("PLB_BAD_VALUE") } } },
      };
      responses["404"] = {
        description: "gone",
        content: {
          "application/json": {
            examples: { a: errorExample("PLB_TARGET_NOT_FOUND"), b: errorExample("PLB_TARGET_GONE") },
          },
        },
      };
    },
    verdict: [["error-code-status-changed", C]],
  },
  "error-code-added": {
    revision: (d) => {
      at(d, "/components/responses/BadRequest/content/application~1json/examples").param =
        errorExample("PLB_BAD_PARAMETER");
    },
    verdict: [["error-code-added", `${S}, ${C}`]],
  },
};

async function verdict(c: Case): Promise<Verdict> {
  // BASE is the fixture with the case's base change, REVISION the fixture with its revision change
  const base = baseDocument();
  c.base?.(base);
  const revision = baseDocument();
  c.revision(revision);
  const result = await diffSpecs(source(base, "base.yaml"), source(revision, "revision.yaml"));
  return result.changes.map((x) => {
    const rule = RULES.find((r) => r.id === x.rule);
    expect(x.level, x.rule).toBe(rule?.level);
    return [x.rule, x.operations.join(", ")];
  });
}

describe("spec diff rules: each with its document pair and exact verdict", () => {
  it("the fixture compared with itself has no change", async () => {
    expect(await verdict({ revision: () => {}, verdict: [] })).toEqual([]);
  });
  for (const [id, c] of Object.entries(CASES)) {
    it(id, async () => {
      const got = await verdict(c);
      expect(got.map(([rule]) => rule)).toContain(id);
      expect(got).toEqual(c.verdict);
    });
  }
});

describe("request-bound-tightened and -loosened, keyword by keyword", () => {
  const fields = {
    n: { type: "integer", minimum: 0, maximum: 10 },
    s: { type: "string", minLength: 2, maxLength: 10 },
    a: { type: "array", minItems: 1, maxItems: 5, items: { type: "string" } },
  };
  const withFields = (d: Doc, change?: [string, string, unknown]) => {
    const props = at(d, `${CRAWL_BODY}/properties`);
    Object.assign(props, structuredClone(fields));
    if (change) (props[change[0]] as Doc)[change[1]] = change[2];
  };
  const cases: Array<[string, string, unknown, string]> = [
    ["n", "minimum", 1, "a client sending `n: 0` is now refused (minimum 0 → 1)"],
    ["n", "maximum", 9, "a client sending `n: 10` is now refused (maximum 10 → 9)"],
    ["n", "exclusiveMaximum", 10, "a client sending `n: 10` is now refused (maximum 10 → exclusiveMaximum 10)"],
    ["s", "minLength", 3, "a client sending `s` with 2 characters is now refused (minLength 2 → 3)"],
    ["s", "maxLength", 8, "a client sending `s` with 9 characters is now refused (maxLength 10 → 8)"],
    ["s", "pattern", "^[a-z]+$", "a client sending `s` that does not match `^[a-z]+$` is now refused"],
    ["a", "minItems", 2, "a client sending `a` with 1 items is now refused (minItems 1 → 2)"],
    ["a", "maxItems", 4, "a client sending `a` with 5 items is now refused (maxItems 5 → 4)"],
  ];
  for (const [field, keyword, value, message] of cases) {
    it(`${keyword} tightened, then loosened back`, async () => {
      const plain = baseDocument();
      withFields(plain);
      const tight = baseDocument();
      withFields(tight, [field, keyword, value]);
      const forward = await diffSpecs(source(plain, "a.yaml"), source(tight, "b.yaml"));
      expect(forward.changes.map((c) => [c.rule, c.operations.join(", "), c.message])).toEqual([
        ["request-bound-tightened", C, message],
      ]);
      const back = await diffSpecs(source(tight, "b.yaml"), source(plain, "a.yaml"));
      expect(back.changes.map((c) => [c.rule, c.level])).toEqual([["request-bound-loosened", "non-breaking"]]);
    });
  }
});
