import { gzipSync } from "node:zlib";
import { type Contract, loadContract, type Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINKS_HTML } from "../test/fixture-pages.ts";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { createHttpClient, type HttpClient } from "./http-client.ts";
import { createSitemapEngine } from "./sitemap-engine.ts";
import type { SitemapLimits } from "./sitemap-fetch.ts";

const ctx: EngineContext = { requestId: "test", variability: "normal", seed: 1 };
const xml = (body: string) => ({ type: "application/xml", body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}` });
const urlset = (...locs: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join("")}</urlset>`;
const index = (...locs: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join("")}</sitemapindex>`;

let withSitemap: FixtureSite; // robots.txt → index → gzipped child + nested index → child
let conventional: FixtureSite; // no Sitemap line in robots.txt; /sitemap.xml exists
let bare: FixtureSite; // publishes no sitemap at all
let bomb: FixtureSite; // a gzipped sitemap that inflates far past the cap; an index that lists itself
let contract: Contract;
let http: HttpClient;

beforeAll(async () => {
  contract = await loadContract();
  withSitemap = await serveSite({
    "/robots.txt": {
      type: "text/plain",
      body: "User-agent: *\nDisallow: /private/\n\nSitemap: {{BASE}}/sitemaps/index.xml\n",
    },
    "/sitemaps/index.xml": xml(index("{{BASE}}/sitemaps/pages.xml.gz", "/sitemaps/nested.xml")),
    "/sitemaps/pages.xml.gz": {
      type: "application/gzip",
      gzip: true,
      body: `<?xml version="1.0"?>${urlset(
        "{{BASE}}/article.html",
        "{{BASE}}/docs/one.html",
        "{{BASE}}/search?q=tide&amp;page=2",
        "https://example.org/other-host",
        "{{BASE}}/docs/one.html",
      )}`,
    },
    "/sitemaps/nested.xml": xml(index("{{BASE}}/sitemaps/more.xml")),
    "/sitemaps/more.xml": xml(urlset("{{BASE}}/docs/two.html", "not a url", "ftp://{{BASE}}/file")),
    "/links.html": { body: LINKS_HTML },
  });
  conventional = await serveSite({
    "/robots.txt": { type: "text/plain", body: "User-agent: *\nAllow: /\n" },
    "/sitemap.xml": xml(urlset("{{BASE}}/from-conventional-path")),
    "/links.html": { body: LINKS_HTML },
  });
  bare = await serveSite({
    "/links.html": { body: LINKS_HTML },
    "/sitemap.xml": { status: 200, body: "<h1>Soft 404</h1>" },
  });
  bomb = await serveSite({
    "/robots.txt": { type: "text/plain", body: "Sitemap: {{BASE}}/bomb.xml.gz\nSitemap: {{BASE}}/loop.xml\n" },
    "/bomb.xml.gz": { type: "application/octet-stream", body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 32)) },
    "/loop.xml": xml(index("{{BASE}}/loop.xml")),
    "/links.html": { body: LINKS_HTML },
  });
  http = createHttpClient({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await http.close();
  await Promise.all([withSitemap, conventional, bare, bomb].map((s) => s.close()));
});

function sitemap(limits?: Partial<SitemapLimits>) {
  return createSitemapEngine({ http, limits });
}

function links(r: EngineResult<Schemas["SitemapResponse"]>): string[] {
  if (!r.ok) throw new Error(`expected links, got ${r.code}: ${r.message}`);
  expect(contract.validators.checkResponse("sitemap", 200, "application/json", r.value)).toBeNull();
  return r.value.links;
}

describe("sitemap: type sitemap (interface-spec POST /sitemap 1)", () => {
  it("follows robots.txt to an index, a gzipped child and a nested index; same host only, each URL once", async () => {
    const base = withSitemap.url;
    const got = links(await sitemap()({ url: `${base}/links.html` }, ctx));
    expect(got).toEqual([
      `${base}/article.html`,
      `${base}/docs/one.html`,
      `${base}/search?q=tide&page=2`,
      `${base}/docs/two.html`,
    ]);
  });

  it("fetches only robots.txt and sitemap documents, never the pages they list nor the given page (rule 4)", async () => {
    const before = withSitemap.hits.length;
    await sitemap()({ url: `${withSitemap.url}/links.html` }, ctx);
    expect(withSitemap.hits.slice(before)).toEqual([
      "/robots.txt",
      "/sitemaps/index.xml",
      "/sitemaps/pages.xml.gz",
      "/sitemaps/nested.xml",
      "/sitemaps/more.xml",
    ]);
  });

  it("tries the conventional paths when robots.txt names no sitemap", async () => {
    const got = links(await sitemap()({ url: `${conventional.url}/links.html`, type: "sitemap" }, ctx));
    expect(got).toEqual([`${conventional.url}/from-conventional-path`]);
  });

  it("caps the URLs returned", async () => {
    expect(links(await sitemap({ maxUrls: 2 })({ url: `${withSitemap.url}/` }, ctx))).toHaveLength(2);
  });

  it("survives a gzip bomb and an index that lists itself, then falls back to the page's links", async () => {
    // (the bomb is read no further than maxDocumentBytes, the loop once: the test's timeout is only a hang detector)
    const got = links(await sitemap({ maxDocumentBytes: 1024 * 1024 })({ url: `${bomb.url}/links.html` }, ctx));
    expect(got).toContain(`${bomb.url}/docs/one.html`);
    expect(bomb.hits.filter((p) => p === "/loop.xml")).toHaveLength(1);
  });
});

describe("sitemap: fallback and type all (interface-spec POST /sitemap 2-3)", () => {
  it("a site without sitemap gives the page's same-host links, absolute, without fragments, each once", async () => {
    const base = bare.url;
    const got = links(await sitemap()({ url: `${base}/links.html` }, ctx));
    expect(got).toEqual([`${base}/article.html`, `${base}/docs/one.html`, `${base}/docs/two.html`]);
  });

  it("type all returns every http(s) link of the page, other hosts included, and reads no sitemap", async () => {
    const base = withSitemap.url;
    const before = withSitemap.hits.length;
    const got = links(await sitemap()({ url: `${base}/links.html`, type: "all" }, ctx));
    expect(got).toEqual([
      `${base}/article.html`,
      `${base}/docs/one.html`,
      `${base}/docs/two.html`,
      "https://example.org/elsewhere",
      "http://other.example.net/page?x=1",
    ]);
    expect(withSitemap.hits.slice(before)).toEqual(["/links.html"]);
  });

  it("a page that cannot be read is an upstream failure (sitemap lists no 404)", async () => {
    const r = await sitemap()({ url: `${bare.url}/nowhere.html`, type: "all" }, ctx);
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/404/) });
  });

  it("refuses a loopback target without allowPrivateNetwork (400: sitemap lists no 403)", async () => {
    const strict = createHttpClient({});
    try {
      for (const type of ["sitemap", "all"] as const) {
        const r = await createSitemapEngine({ http: strict })({ url: `${bare.url}/links.html`, type }, ctx);
        expect(r).toMatchObject({ ok: false, code: "PLB_BAD_VALUE", message: expect.stringMatching(/loopback/) });
      }
    } finally {
      await strict.close();
    }
  });
});
