import { type Contract, loadContract, type Schemas } from "@plumbline-kit/contract";
import { forbiddenReason } from "@plumbline-kit/platform/address-policy";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { countWords } from "@plumbline-kit/platform/word-count";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTICLE_HTML, MARKERS } from "../test/fixture-pages.ts";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { createCrawlEngine } from "./crawl-engine.ts";
import { createHttpClient, type HttpClient, type HttpClientOptions } from "./http-client.ts";

const NOW = Date.parse("2026-11-25T12:00:00.000Z");
const clock = { now: () => NOW };
const ctx: EngineContext = { requestId: "test", variability: "normal", seed: 1 };
const fixtureIsPublic = (ip: string) => (ip === "127.0.0.1" ? null : forbiddenReason(ip));

let site: FixtureSite;
let contract: Contract;
const clients: HttpClient[] = [];

beforeAll(async () => {
  contract = await loadContract();
  site = await serveSite({
    "/article.html": { body: ARTICLE_HTML },
    "/moved": { status: 302, headers: { location: "/article.html" } },
    "/to-private": { status: 302, headers: { location: "http://10.1.2.3/article.html" } },
    "/missing": { status: 404, body: "<h1>Not found</h1>" },
    "/gone": { status: 410, body: "<h1>Gone</h1>" },
    "/broken": { status: 500, body: "<h1>Oops</h1>" },
    "/photo.png": { type: "image/png", body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]) },
    "/notes.txt": { type: "text/plain; charset=utf-8", body: "Tide tables for the week.\nHigh water at 06:12." },
    "/data.json": { type: "application/json", body: '{"harbour":"Porthleven","turbines":4}' },
    "/readme.md": { type: "text/markdown", body: "# Harbour notes\n\nThe *quay* is 120 m long." },
    "/latin1.html": {
      type: "text/html; charset=iso-8859-1",
      body: Buffer.from(
        "<html><head><title>Caf\xe9</title></head><body><p>Caf\xe9 cr\xe8me</p></body></html>",
        "latin1",
      ),
    },
    "/huge.html": { body: `<html><body><p>${"word ".repeat(300_000)}</p></body></html>` },
    "/slow.html": { body: "<p>late</p>", delayMs: 3000 },
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await site.close();
});

function engine(http: HttpClientOptions = { allowPrivateNetwork: true }) {
  const client = createHttpClient(http);
  clients.push(client);
  return createCrawlEngine({ http: client, clock });
}

function valid(r: EngineResult<Schemas["CrawlResponse"]>) {
  if (!r.ok) throw new Error(`expected a crawl result, got ${r.code}: ${r.message}`);
  expect(contract.validators.checkResponse("crawl", 200, "application/json", r.value)).toBeNull();
  return r.value.results;
}

describe("crawl: readable Markdown (D-crawl-content)", () => {
  it("keeps the article's text, headings, list, link and code, and none of the boilerplate", async () => {
    const url = `${site.url}/article.html`;
    const started = performance.now();
    const result = valid(await engine()({ url }, ctx));
    console.log(`static crawl of the article: ${(performance.now() - started).toFixed(0)} ms (first call)`);
    expect(result.title).toBe("Tidal energy in small harbours");
    expect(result.link).toBe(url);
    const md = result.content;
    expect(md).toMatch(/^# Tidal energy in small harbours\n/);
    expect(md).toContain("runs twice a day, when the water flows in and when it flows out.");
    expect(md).toContain("## What it costs");
    expect(md).toContain("- Turbines and foundations\n- Grid connection and metering");
    expect(md).toContain(`[turbine design](${site.url}/docs/turbines)`);
    expect(md).toContain('```js\nconst reading = await fetch("/meter").then((r) => r.json());\n```');
    for (const marker of MARKERS) expect(md).not.toContain(marker);
    expect(md).not.toMatch(/Accept all cookies|NAVMARKER|Privacy/);
  });

  it("fills the metadata of D-crawl-metadata", async () => {
    const result = valid(await engine()({ url: `${site.url}/article.html` }, ctx));
    expect(result.metadata).toEqual({
      description: "How small harbours turn the tide into electricity.",
      language: "en-GB",
      published_time: "2026-03-14T09:30:00Z",
      site_name: "Harbour Weekly",
      canonical_url: `${site.url}/articles/tidal-energy`,
      status_code: 200,
      content_type: "text/html",
      word_count: countWords(result.content),
      fetched_at: "2026-11-25T12:00:00.000Z",
      rendered: false,
      // the article has no pictures (D-crawl-metadata: images, which the text leaves out)
      images: [],
    });
    expect(result.metadata?.word_count).toBeGreaterThan(80);
  });

  it("reports the final URL after redirects as the link, the requested one as crawlParameters.url", async () => {
    const r = await engine()({ url: `${site.url}/moved` }, ctx);
    expect(r.ok && r.value.crawlParameters.url).toBe(`${site.url}/moved`);
    expect(valid(r).link).toBe(`${site.url}/article.html`);
  });

  it("decodes the declared charset", async () => {
    const result = valid(await engine()({ url: `${site.url}/latin1.html` }, ctx));
    expect(result.title).toBe("Café");
    expect(result.content).toContain("Café crème");
  });
});

describe("crawl: other content types", () => {
  it("returns plain text as it is, JSON in a fenced block, Markdown with its heading as title", async () => {
    const crawl = engine();
    const text = valid(await crawl({ url: `${site.url}/notes.txt` }, ctx));
    expect(text).toMatchObject({ title: "notes.txt", content: "Tide tables for the week.\nHigh water at 06:12." });
    expect(text.metadata).toMatchObject({ content_type: "text/plain", word_count: 9, rendered: false });
    const json = valid(await crawl({ url: `${site.url}/data.json` }, ctx));
    expect(json.content).toBe('```json\n{"harbour":"Porthleven","turbines":4}\n```');
    const md = valid(await crawl({ url: `${site.url}/readme.md` }, ctx));
    expect(md).toMatchObject({ title: "Harbour notes", content: "# Harbour notes\n\nThe *quay* is 120 m long." });
  });

  it("refuses a binary resource, naming its content type (PLB_BAD_VALUE)", async () => {
    const r = await engine()({ url: `${site.url}/photo.png` }, ctx);
    expect(r).toMatchObject({ ok: false, code: "PLB_BAD_VALUE", message: expect.stringContaining("image/png") });
  });
});

describe("crawl: failures as values", () => {
  it.each([
    ["/missing", "PLB_TARGET_NOT_FOUND"],
    ["/gone", "PLB_TARGET_GONE"],
    ["/broken", "PLB_UPSTREAM_FAILED"],
  ])("a target answering %s gives %s", async (path, code) => {
    expect(await engine()({ url: `${site.url}${path}` }, ctx)).toMatchObject({ ok: false, code });
  });

  it("refuses 127.0.0.1 and localhost without allowPrivateNetwork (400: crawl lists no 403)", async () => {
    const crawl = engine({});
    const before = site.hits.length;
    for (const url of [`${site.url}/article.html`, `http://localhost:${site.port}/article.html`]) {
      const r = await crawl({ url }, ctx);
      expect(r).toMatchObject({ ok: false, code: "PLB_BAD_VALUE", message: expect.stringMatching(/loopback/) });
    }
    expect(site.hits.length).toBe(before);
  });

  it("refuses a redirect to a private address", async () => {
    const r = await engine({ addressPolicy: fixtureIsPublic })({ url: `${site.url}/to-private` }, ctx);
    expect(r).toMatchObject({
      ok: false,
      code: "PLB_BAD_VALUE",
      message: expect.stringMatching(/10\.1\.2\.3.*private/),
    });
  });

  it("gives up on a body over the size cap and on a target slower than the timeout", async () => {
    const capped = await engine({ allowPrivateNetwork: true, maxBytes: 1024 * 1024 })(
      { url: `${site.url}/huge.html` },
      ctx,
    );
    expect(capped).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/larger/) });
    // /slow.html answers after 3 s: a crawl that waited for it would succeed, so the failure is the timeout's
    const slow = await engine({ allowPrivateNetwork: true, timeoutMs: 300 })({ url: `${site.url}/slow.html` }, ctx);
    expect(slow).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/300 ms/) });
  });

  it("reports an unreachable host as an upstream failure", async () => {
    const closed = await serveSite({});
    await closed.close();
    const r = await engine()({ url: `${closed.url}/` }, ctx);
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});
