// The fixture site serves what the semantic checks rely on: robots.txt → sitemap index → gzipped sitemap, the
// canary token hashed from its URL, status pages, and an origin without any sitemap.
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canaryToken, type FixtureServer, startFixtureServer } from "../fixtures/fixture-server.ts";

let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer();
});
afterAll(async () => {
  await site?.close();
});

describe("the fixture site", () => {
  it("chains robots.txt, a sitemap index and a gzipped sitemap, with addresses of the origin asked", async () => {
    const robots = await (await fetch(`${site.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${site.url}/sitemaps/index.xml`);
    const index = await (await fetch(`${site.url}/sitemaps/index.xml`)).text();
    expect(index).toContain(`${site.url}/sitemaps/pages.xml.gz`);
    const gz = Buffer.from(await (await fetch(`${site.url}/sitemaps/pages.xml.gz`)).arrayBuffer());
    expect(gunzipSync(gz).toString()).toContain(`<loc>${site.url}/docs/two.html</loc>`);
  });

  it("serves the canary token, status pages, and an origin without sitemap", async () => {
    expect(await (await fetch(`${site.url}/canary/abc123`)).text()).toContain(canaryToken("abc123"));
    expect(canaryToken("abc123")).not.toContain("abc123");
    expect((await fetch(`${site.url}/status/410`)).status).toBe(410);
    expect((await fetch(`${site.noSitemapUrl}/robots.txt`)).status).toBe(404);
    expect((await fetch(`${site.noSitemapUrl}/links.html`)).status).toBe(200);
  });

  it("keeps requests inside the site folder", async () => {
    expect((await fetch(`${site.url}/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});
