// A small contract-shaped OpenAPI 3.1 document for the rule tests: priced operations with a single-or-batch body,
// a path parameter, error responses naming catalogue codes, a rate-limit policy and a recursive schema. Each rule
// test changes a copy of it and diffs the two.
import { stringify } from "yaml";
import { type SpecSource, specSourceFromText } from "../spec-source.ts";

export type Doc = Record<string, unknown>;

export function baseDocument(): Doc {
  return {
    openapi: "3.1.0",
    info: { title: "fixture", version: "1.0.0" },
    security: [{ bearerAuth: [] }],
    "x-pricing-currency": { currency: "usd" },
    "x-rate-limits": { window_seconds: 60, per_account: 200, per_operation: { crawl: 20 }, retry_after_seconds: 60 },
    paths: {
      "/search": {
        post: {
          operationId: "search",
          "x-pricing": {
            credits: 1,
            price: "0.003",
            protocol: "mpp",
            surcharge: { parameter: "crawl_results", perUnitOperation: "crawl", description: "a crawl per result" },
          },
          parameters: [{ name: "trace", in: "query", schema: { type: "string" } }],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: [
                    { $ref: "#/components/schemas/SearchParameters" },
                    {
                      type: "array",
                      minItems: 1,
                      maxItems: 50,
                      items: { $ref: "#/components/schemas/SearchParameters" },
                    },
                  ],
                },
              },
            },
          },
          responses: {
            "200": {
              description: "results",
              headers: {
                "x-request-id": { required: true, schema: { type: "string" } },
                Link: { schema: { type: "string" } },
              },
              content: { "application/json": { schema: { $ref: "#/components/schemas/SearchResponse" } } },
            },
            "400": { $ref: "#/components/responses/BadRequest" },
            "429": { $ref: "#/components/responses/TooManyRequests" },
          },
        },
      },
      "/crawl": {
        post: {
          operationId: "crawl",
          "x-pricing": { credits: 1, price: "0.003", protocol: "mpp" },
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["url"],
                  properties: { url: { type: "string", format: "uri" }, enableFallback: { type: "boolean" } },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "page",
              content: {
                "application/json": {
                  schema: { type: "object", required: ["content"], properties: { content: { type: "string" } } },
                },
              },
            },
            "400": { $ref: "#/components/responses/BadRequest" },
          },
        },
      },
      "/deepcrawl/status/{taskId}": {
        get: {
          operationId: "deepcrawlStatus",
          parameters: [{ name: "taskId", in: "path", required: true, schema: { type: "string", minLength: 1 } }],
          responses: {
            "200": {
              description: "status",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["status"],
                    properties: { status: { type: "string", enum: ["queued", "completed"] } },
                  },
                },
              },
            },
          },
        },
      },
      "/health": {
        get: {
          operationId: "health",
          security: [],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": { schema: { type: "object", properties: { status: { type: "string" } } } },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer" },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      },
      schemas: {
        SearchParameters: {
          type: "object",
          additionalProperties: false,
          required: ["query"],
          properties: {
            query: { type: "string", minLength: 1, maxLength: 500 },
            max_results: { type: "integer", minimum: 1, maximum: 50, default: 5 },
            search_service: { type: "string", enum: ["google", "bing"] },
            crawl_results: { type: "integer", minimum: 0, maximum: 5 },
            site: { type: "string", pattern: "^[a-z.]+$" },
            lang: { type: "string" },
          },
        },
        SearchResponse: {
          type: "object",
          required: ["searchParameters", "results"],
          properties: {
            searchParameters: { $ref: "#/components/schemas/SearchParameters" },
            results: { type: "array", maxItems: 50, items: { $ref: "#/components/schemas/SearchResult" } },
          },
        },
        SearchResult: {
          type: "object",
          required: ["title", "link"],
          properties: {
            title: { type: "string" },
            link: { type: "string", format: "uri" },
            snippet: { type: "string" },
            rank: { type: "integer", minimum: 1, maximum: 100 },
            kind: { type: "string", enum: ["web", "news"] },
            related: { type: "array", items: { $ref: "#/components/schemas/SearchResult" } },
          },
        },
        ApiError: {
          type: "object",
          properties: { ok: { const: false }, message: { type: "string" }, code: { type: "string" } },
        },
      },
      responses: {
        BadRequest: {
          description: "bad request",
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/ApiError" },
              examples: { bad: { value: { ok: false, message: "no", code: "PLB_BAD_VALUE" } } },
            },
          },
        },
        TooManyRequests: {
          description: "throttled",
          headers: { "Retry-After": { required: true, schema: { type: "integer" } } },
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/ApiError" },
              examples: { limited: { value: { ok: false, message: "slow down", code: "PLB_RATE_LIMITED" } } },
            },
          },
        },
      },
    },
  };
}

/** The object at a JSON pointer of a document (created when missing), for a test to change in place. */
export function at(doc: Doc, pointer: string): Doc {
  let node = doc as Record<string, unknown>;
  for (const raw of pointer.split("/").slice(1)) {
    const t = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node[t] ??= {};
    node = node[t] as Record<string, unknown>;
  }
  return node as Doc;
}

export function source(doc: Doc, label: string): SpecSource {
  return specSourceFromText(stringify(doc), label);
}
