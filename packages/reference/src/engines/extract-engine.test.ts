// POST /extract in the reference (issue 14): the deterministic extractor on fixture pages with and without
// structured data, and the model path against a local stand-in speaking the chat-completions wire format,
// including a model answer that does not validate, a slow model and a failing one.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EngineContext } from "@plumbline-kit/platform/engines";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { createExtractEngine } from "./extract-engine.ts";
import { createHttpClient } from "./http-client.ts";

const ctx: EngineContext = { requestId: "t", variability: "normal", seed: 1 };
const PRODUCT = readFileSync(
  new URL("../../../tools/src/conformance/fixtures/site/product.html", import.meta.url),
  "utf8",
);
const PRODUCT_SCHEMA = {
  type: "object",
  properties: { name: { type: "string" }, sku: { type: "string" }, price_usd: { type: "number" } },
  required: ["name", "sku", "price_usd"],
};
const PLANS_SCHEMA = {
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    properties: { plan: { type: "string" }, monthly_usd: { type: "number" } },
    required: ["plan", "monthly_usd"],
  },
};
const ARTICLE = `<!doctype html><html lang="de"><head><title>Gezeiten | Hafenblatt</title>
<meta name="description" content="Wann das Wasser steigt.">
<meta property="og:site_name" content="Hafenblatt">
<meta name="author" content="Ida Kranz">
<meta property="article:published_time" content="2026-11-20T08:00:00Z"></head>
<body><article><h1>Gezeiten im Hafen</h1><p>Das Hochwasser kommt heute um 06:12.</p>
<h2>Termine</h2><ul><li>Montag: Führung</li><li>Dienstag: Vortrag</li><li>Mittwoch: Regatta</li></ul>
<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Regatta</span>
<meta itemprop="startDate" content="2026-11-25"><span itemprop="maximumAttendeeCapacity">120</span></div>
</article></body></html>`;

let site: FixtureSite;
const http = createHttpClient({ allowPrivateNetwork: true });

beforeAll(async () => {
  site = await serveSite({
    "/product.html": { body: PRODUCT },
    "/article.html": { body: ARTICLE },
    "/notes.txt": { type: "text/plain", body: "Tide notes\n\nHigh water at 06:12." },
    "/photo.png": { type: "image/png", body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) },
    "/missing": { status: 404, body: "no" },
  });
});
afterAll(() => site.close());

describe("the deterministic extractor (no model configured)", () => {
  const extract = createExtractEngine({ http });

  it("fills an object schema from the page's structured data", async () => {
    const r = await extract({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    expect(r).toEqual({
      ok: true,
      value: {
        success: true,
        extractParameters: { url: `${site.url}/product.html` },
        results: { name: "Plumbline Tide Gauge", sku: "PLB-TG-7", price_usd: 249.5 },
      },
    });
  });

  it("fills an array of objects from the table whose headers match, in the OpenAI wrapper too", async () => {
    const prompt = "Every service plan in the table with its monthly price in US dollars.";
    const plain = await extract({ url: `${site.url}/product.html`, prompt, response_format: PLANS_SCHEMA }, ctx);
    const wrapped = await extract(
      {
        url: `${site.url}/product.html`,
        prompt,
        response_format: { type: "json_schema", json_schema: { name: "plans", schema: PLANS_SCHEMA } },
      },
      ctx,
    );
    const plans = [
      { plan: "Starter", monthly_usd: 0 },
      { plan: "Harbour", monthly_usd: 49 },
      { plan: "Fleet", monthly_usd: 199 },
    ];
    expect(plain.ok && plain.value.results).toEqual(plans);
    expect(wrapped.ok && wrapped.value.results).toEqual(plans);
  });

  it("uses meta tags, microdata, lists and text on a page without JSON-LD", async () => {
    const schema = {
      type: "object",
      properties: {
        title: { type: "string" },
        author: { type: "string" },
        published_time: { type: "string" },
        site_name: { type: "string" },
        termine: { type: "array", items: { type: "string" } },
        event_start_date: { type: "string" },
        maximum_attendee_capacity: { type: "integer" },
        language: { type: "string" },
      },
      required: ["title", "author", "termine"],
    };
    const r = await extract({ url: `${site.url}/article.html`, response_format: schema }, ctx);
    expect(r.ok && r.value.results).toEqual({
      title: "Gezeiten im Hafen",
      author: "Ida Kranz",
      published_time: "2026-11-20T08:00:00Z",
      site_name: "Hafenblatt",
      termine: ["Montag: Führung", "Dienstag: Vortrag", "Mittwoch: Regatta"],
      event_start_date: "2026-11-25",
      maximum_attendee_capacity: 120,
      language: "de",
    });
  });

  it("answers the page's main facts without a response_format", async () => {
    const r = await extract({ url: `${site.url}/article.html` }, ctx);
    expect(r.ok && r.value.results).toEqual({
      title: "Gezeiten im Hafen",
      description: "Wann das Wasser steigt.",
      url: `${site.url}/article.html`,
    });
  });

  it("never returns what does not validate: a field the page lacks is a clear 502", async () => {
    const schema = { type: "object", properties: { isbn: { type: "string", pattern: "^97[89]" } }, required: ["isbn"] };
    const r = await extract({ url: `${site.url}/product.html`, response_format: schema }, ctx);
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(!r.ok && r.message).toMatch(/isbn/);
  });

  it("refuses an uncompilable schema, a binary target, and maps target failures to the extract statuses", async () => {
    const bad = await extract(
      { url: `${site.url}/product.html`, response_format: { type: "object", properties: { x: { type: 7 } } } },
      ctx,
    );
    expect(bad).toMatchObject({ ok: false, code: "PLB_BAD_VALUE" });
    expect(await extract({ url: `${site.url}/photo.png` }, ctx)).toMatchObject({ ok: false, code: "PLB_BAD_VALUE" });
    // extract lists no 404: a missing target is the upstream's failure
    expect(await extract({ url: `${site.url}/missing` }, ctx)).toMatchObject({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
    });
    const text = await extract({ url: `${site.url}/notes.txt` }, ctx);
    expect(text.ok && text.value.results).toMatchObject({ title: "Tide notes" });
  });
});

describe("the model path (an OpenAI-compatible chat-completions stand-in)", () => {
  const KEY = "sk-test-secret-9f8e7d";
  let model: Server;
  let modelUrl: string;
  const requests: Array<{ headers: IncomingMessage["headers"]; body: Record<string, unknown> }> = [];
  let answers: Array<string | { status: number } | { delayMs: number }> = [];

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => {
        raw += c;
      });
      req.on("end", () => {
        requests.push({ headers: req.headers, body: JSON.parse(raw) });
        const next = answers.shift() ?? "{}";
        if (typeof next === "object" && "status" in next) {
          res.writeHead(next.status, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: `bad key ${req.headers.authorization}` } }));
          return;
        }
        if (typeof next === "object") return; // never answers: the timeout's turn
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c1",
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: next }, finish_reason: "stop" }],
          }),
        );
      });
    });
    await new Promise<void>((r) => model.listen(0, "127.0.0.1", r));
    modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    model.closeAllConnections();
    return new Promise<void>((r) => model.close(() => r()));
  });

  const engine = (timeoutMs = 5000, maxInputTokens = 8000) =>
    createExtractEngine({
      http,
      model: { url: modelUrl, model: "test-model", apiKey: KEY, timeoutMs, maxInputTokens },
    });

  it("sends the prompt, the page text and the schema, and returns the model's valid answer", async () => {
    requests.length = 0;
    answers = [JSON.stringify({ name: "Plumbline Tide Gauge", sku: "PLB-TG-7", price_usd: 249.5 })];
    const r = await engine()(
      { url: `${site.url}/product.html`, prompt: "The product.", response_format: PRODUCT_SCHEMA },
      ctx,
    );
    expect(r.ok && r.value.results).toEqual({ name: "Plumbline Tide Gauge", sku: "PLB-TG-7", price_usd: 249.5 });
    const sent = requests[0];
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body.model).toBe("test-model");
    expect(sent.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "extraction", schema: PRODUCT_SCHEMA, strict: false },
    });
    const user = (sent.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user");
    expect(user?.content).toContain("The product.");
    expect(user?.content).toContain("Plumbline Tide Gauge");
  });

  it("wraps a non-object schema for structured output and unwraps the answer", async () => {
    requests.length = 0;
    answers = [JSON.stringify({ result: [{ plan: "Fleet", monthly_usd: 199 }] })];
    const r = await engine()({ url: `${site.url}/product.html`, response_format: PLANS_SCHEMA }, ctx);
    expect(r.ok && r.value.results).toEqual([{ plan: "Fleet", monthly_usd: 199 }]);
    const schema = (requests[0].body.response_format as { json_schema: { schema: unknown } }).json_schema.schema;
    expect(schema).toEqual({ type: "object", properties: { result: PLANS_SCHEMA }, required: ["result"] });
  });

  it("retries once with the problem, and fails (502, never invalid data) when the answer still does not validate", async () => {
    requests.length = 0;
    answers = [
      JSON.stringify({ name: "x" }),
      JSON.stringify({ name: "Plumbline Tide Gauge", sku: "PLB-TG-7", price_usd: 249.5 }),
    ];
    const fixed = await engine()({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    expect(fixed.ok).toBe(true);
    expect(JSON.stringify(requests[1].body.messages)).toContain("does not match the schema");
    answers = [JSON.stringify({ name: 1 }), "not json at all"];
    const r = await engine()({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    answers = [JSON.stringify({ name: 1 }), JSON.stringify({ name: 2 })];
    const invalid = await engine()({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    expect(invalid).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(!invalid.ok && invalid.message).toMatch(/does not match response_format/);
  });

  it("a failing or slow model is a 502 whose message never shows the key", async () => {
    answers = [{ status: 401 }];
    const refused = await engine()({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    expect(refused).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(JSON.stringify(refused)).not.toContain(KEY);
    // the model would answer after 60 s, past this test's hang detector: the 502 can only be the 300 ms timeout's
    answers = [{ delayMs: 60_000 }];
    const slow = await engine(300)({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    expect(slow).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
    expect(!slow.ok && slow.message).toMatch(/did not answer within 300 ms/);
  });

  it("cuts a long page to the token budget", async () => {
    requests.length = 0;
    answers = [JSON.stringify({ name: "Plumbline Tide Gauge", sku: "PLB-TG-7", price_usd: 249.5 })];
    await engine(5000, 10)({ url: `${site.url}/product.html`, response_format: PRODUCT_SCHEMA }, ctx);
    const user = (requests[0].body.messages as Array<{ role: string; content: string }>)[1].content;
    expect(user).toContain("[page truncated]");
  });
});

describe("lists a page does not have", () => {
  it("a required array the page has no entries for is empty, where the schema allows it", async () => {
    const extract = createExtractEngine({ http });
    const schema = {
      type: "object",
      properties: { plans: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } } },
      required: ["plans"],
    };
    const r = await extract({ url: `${site.url}/article.html`, response_format: schema }, ctx);
    expect(r.ok && r.value.results).toEqual({ plans: [] });
    const atLeastOne = { ...schema, properties: { plans: { ...schema.properties.plans, minItems: 1 } } };
    expect(await extract({ url: `${site.url}/article.html`, response_format: atLeastOne }, ctx)).toMatchObject({
      ok: false,
      code: "PLB_UPSTREAM_FAILED",
    });
  });
});
