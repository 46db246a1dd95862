// Shared probe: POST /extract with two response_format schemas, an object with required fields and an array of
// items, on the fixture product page when the target fetches real pages (the example URL otherwise). One check
// validates the results against the schemas (any target), another compares the values with the page (real only).

import type { Contract, JsonSchema } from "@plumbline-kit/contract";
import { baseBody } from "@plumbline-kit/contract/bounds";
import { PRODUCT_PAGE } from "../fixtures/site-facts.ts";
import type { Exchange, Probe } from "../types.ts";
import { fixturePageUrl } from "./target-urls.ts";

export interface ExtractCall {
  name: "product" | "plans";
  schema: JsonSchema;
  body: { url: string; prompt: string; response_format: unknown };
  exchange: Exchange;
}

export const PRODUCT_SCHEMA: JsonSchema = {
  type: "object",
  properties: { name: { type: "string" }, sku: { type: "string" }, price_usd: { type: "number" } },
  required: ["name", "sku", "price_usd"],
};

export const PLANS_SCHEMA: JsonSchema = {
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    properties: { plan: { type: "string" }, monthly_usd: { type: "number" } },
    required: ["plan", "monthly_usd"],
  },
};

const REQUESTS: Array<Pick<ExtractCall, "name" | "schema"> & { prompt: string }> = [
  { name: "product", schema: PRODUCT_SCHEMA, prompt: "The product's name, its SKU and its price in US dollars." },
  {
    name: "plans",
    schema: PLANS_SCHEMA,
    prompt: "Every service plan in the table with its monthly price in US dollars.",
  },
];

export const extractPrice = (c: Contract) => c.prices.entryCredits("extract", baseBody(c.operation("extract")));

export const extractCallsProbe: Probe<ExtractCall[]> = {
  id: "extract-calls",
  usesFixtureSite: true,
  cost: (c, _alt, scope) => (scope.has("extract") ? REQUESTS.length * extractPrice(c) : 0),
  async run(ctx) {
    const url = await fixturePageUrl(ctx, PRODUCT_PAGE.path, String(baseBody(ctx.contract.operation("extract")).url));
    const out: ExtractCall[] = [];
    for (const r of REQUESTS) {
      const body = { url, prompt: r.prompt, response_format: r.schema };
      const exchange = await ctx.http.call("probe:extract-calls", "POST", "/extract", { body });
      out.push({ name: r.name, schema: r.schema, body, exchange });
    }
    return out;
  },
};
