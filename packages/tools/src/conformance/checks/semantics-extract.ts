// Extract semantics (interface-spec "Extract response": `results` is any JSON value whose shape follows the
// `response_format` supplied; D-extract-response-format: a plain JSON Schema or the OpenAI-style wrapper). The
// shape holds for any target; the values come from the fixture product page only on a target that fetches it.

import { baseBody } from "@plumbline-kit/contract/bounds";
import { judgeAnswer } from "../answer-judge.ts";
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import { PRODUCT_PAGE } from "../fixtures/site-facts.ts";
import { type ExtractCall, extractCallsProbe, extractPrice, PRODUCT_SCHEMA } from "../probes/extract-calls.ts";
import { fixturePageUrl } from "../probes/target-urls.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

const SECTION = "Extract response; POST /extract";

/**
 * The `results` of an extract answer judged against the response_format it sent, by the contract registry's rule
 * (extract-results-match-format: a plain JSON Schema or the OpenAI-style wrapper).
 */
function resultsProblems(ctx: RunContext, name: string, ex: Exchange): Failure[] {
  const body = json<{ success?: unknown; results?: unknown }>(ex);
  if (status(ex) !== 200 || !body || !("results" in body))
    return [failure(`extract (${name}) gave no results`, [ex], "200 with results", describe(ex))];
  return judgeAnswer(ctx.contract, ex, ["extract-results-match-format"]).map((v) =>
    failure(`extract (${name}): ${v.message}`, [ex], v.expected, v.actual),
  );
}

const matchesFormat: CheckDefinition = {
  id: "extract-results-match-format",
  title: "Extract results validate against the response_format supplied (an object with required fields, an array)",
  severity: "critical",
  section: SECTION,
  basis: { kind: "contract" },
  operations: ["extract"],
  probes: [extractCallsProbe],
  async run(ctx) {
    const failures = (await ctx.probe(extractCallsProbe)).flatMap((c) => resultsProblems(ctx, c.name, c.exchange));
    return { failures };
  },
};

const text = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : "");
const same = (a: unknown, b: number) => typeof a === "number" && Math.abs(a - b) < 0.005;

function valueProblems(c: ExtractCall): Failure[] {
  const results = json<{ results?: unknown }>(c.exchange)?.results;
  const shown = JSON.stringify(results ?? null).slice(0, 300);
  const out: Failure[] = [];
  if (c.name === "product") {
    const r = (results ?? {}) as Record<string, unknown>;
    const p = PRODUCT_PAGE.product;
    if (!text(r.name).includes(p.name.toLowerCase()))
      out.push(failure("the product name is not the page's", [c.exchange], p.name, String(r.name)));
    if (text(r.sku) !== p.sku.toLowerCase())
      out.push(failure("the SKU is not the page's", [c.exchange], p.sku, String(r.sku)));
    if (!same(r.price_usd, p.priceUsd))
      out.push(failure("the price is not the page's", [c.exchange], `${p.priceUsd}`, String(r.price_usd)));
    return out;
  }
  const items = (Array.isArray(results) ? results : []) as Array<Record<string, unknown>>;
  for (const want of PRODUCT_PAGE.plans) {
    const got = items.find((i) => text(i.plan).includes(want.plan.toLowerCase()));
    if (!got || !same(got.monthly_usd, want.monthlyUsd))
      out.push(
        failure(`plan ${want.plan} is missing or mispriced`, [c.exchange], `${want.plan}: ${want.monthlyUsd}`, shown),
      );
  }
  return out;
}

const valuesFromPage: CheckDefinition = {
  id: "extract-values-from-page",
  title: "Extract results hold the page's facts (the fixture product's name, SKU, price and plans)",
  severity: "major",
  section: "POST /extract",
  basis: { kind: "contract" },
  operations: ["extract"],
  preconditions: ["fetches-real-pages"],
  probes: [extractCallsProbe],
  async run(ctx) {
    const calls = await ctx.probe(extractCallsProbe);
    const failures = calls.filter((c) => status(c.exchange) === 200).flatMap(valueProblems);
    if (calls.every((c) => status(c.exchange) !== 200))
      return { failures: [], skip: "no extract call succeeded (see extract-results-match-format)" };
    return { failures };
  },
};

const openAiWrapper: CheckDefinition = {
  id: "extract-openai-wrapper",
  title: 'response_format in the OpenAI style ({type: "json_schema", json_schema: {schema}}) shapes results too',
  severity: "minor",
  section: SECTION,
  basis: { kind: "decision", decision: "D-extract-response-format" },
  operations: ["extract"],
  usesFixtureSite: true,
  cost: (c) => extractPrice(c),
  async run(ctx) {
    const url = await fixturePageUrl(ctx, PRODUCT_PAGE.path, String(baseBody(ctx.contract.operation("extract")).url));
    const response_format = { type: "json_schema", json_schema: { name: "product", schema: PRODUCT_SCHEMA } };
    const body = { url, prompt: "The product's name, its SKU and its price in US dollars.", response_format };
    const ex = await ctx.http.call(this.id, "POST", "/extract", { body });
    const failures = resultsProblems(ctx, "OpenAI-style wrapper", ex);
    return failures.length ? { failures } : ok();
  },
};

export const EXTRACT_SEMANTIC_CHECKS = [matchesFormat, valuesFromPage, openAiWrapper];
