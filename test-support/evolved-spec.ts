// A second version of the contract for the tests of `conform --spec` and `mock --spec`: spec/openapi.yaml as it
// is, plus an operation (POST /images, priced, with a request and a response example) and an enum value
// (search_service `naver`). Written from the current document each time, so it never drifts from it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { SPEC_PATH } from "../packages/contract/src/document.ts";

export const ADDED_OPERATION = { operationId: "images", method: "POST", path: "/images" } as const;
export const ADDED_SEARCH_SERVICE = "naver";

const IMAGES = {
  post: {
    operationId: "images",
    tags: ["search"],
    summary: "Image search",
    "x-pricing": { credits: 2, price: "0.006", protocol: "mpp" },
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/ImagesRequest" },
          examples: { single: { value: { query: "lighthouse at dusk", max_results: 2 } } },
        },
      },
    },
    responses: {
      "200": {
        description: "Images found for the query.",
        headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/ImagesResponse" },
            examples: {
              lighthouse: {
                value: {
                  results: [
                    { url: "https://images.example.com/lighthouse-1.jpg", width: 1600, height: 900 },
                    { url: "https://images.example.com/lighthouse-2.jpg", width: 1200, height: 800 },
                  ],
                },
              },
            },
          },
        },
      },
      "400": { $ref: "#/components/responses/BadRequest" },
      "401": { $ref: "#/components/responses/Unauthorized" },
      "402": { $ref: "#/components/responses/PaymentRequired" },
      "422": { $ref: "#/components/responses/ValidationError" },
      "429": { $ref: "#/components/responses/TooManyRequests" },
    },
  },
};

const SCHEMAS = {
  ImagesRequest: {
    type: "object",
    additionalProperties: false,
    required: ["query"],
    properties: {
      query: { type: "string", minLength: 1, maxLength: 500 },
      max_results: { type: "integer", minimum: 1, maximum: 20, default: 5 },
    },
  },
  ImagesResponse: {
    type: "object",
    required: ["results"],
    properties: {
      results: {
        type: "array",
        items: {
          type: "object",
          required: ["url"],
          properties: {
            url: { type: "string", format: "uri" },
            width: { type: "integer", minimum: 1 },
            height: { type: "integer", minimum: 1 },
          },
        },
      },
    },
  },
};

/** The evolved document's text: the current spec with the operation and the enum value added. */
export function evolvedSpecText(): string {
  const doc = parseDocument(readFileSync(SPEC_PATH, "utf8"));
  doc.setIn(["paths", ADDED_OPERATION.path], doc.createNode(IMAGES));
  for (const [name, schema] of Object.entries(SCHEMAS))
    doc.setIn(["components", "schemas", name], doc.createNode(schema));
  const values = doc.getIn(["components", "schemas", "SearchParameters", "properties", "search_service", "enum"]) as {
    add(v: unknown): void;
  };
  values.add(ADDED_SEARCH_SERVICE);
  return doc.toString({ lineWidth: 0 });
}

/** Writes the evolved document to a fresh temporary folder and returns its path. */
export function writeEvolvedSpec(): string {
  const path = join(mkdtempSync(join(tmpdir(), "plb-evolved-")), "openapi.yaml");
  writeFileSync(path, evolvedSpecText());
  return path;
}
