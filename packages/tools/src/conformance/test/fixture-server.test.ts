// The fixture site serves what the semantic checks rely on: robots.txt → sitemap index → gzipped sitemap, the
// canary token keyed by the server's secret, status pages, and an origin without any sitemap.
import { type AddressInfo, createServer, type Server } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVENTIONAL_ONLY_PAGE, type FixtureServer, startFixtureServer } from "../fixtures/fixture-server.ts";
import { PRODUCT_PAGE, SHOT_PAGE, SITEMAP_PAGES } from "../fixtures/site-facts.ts";

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
    const canary = site.newCanary();
    expect(await (await fetch(`${site.url}${canary.path}`)).text()).toContain(canary.token);
    expect(canary.token).not.toContain(canary.path.split("/").pop());
    // keyed by a secret of each server: another server (or anyone who knows the code) derives another token
    const other = await startFixtureServer();
    try {
      expect(await (await fetch(`${other.url}${canary.path}`)).text()).not.toContain(canary.token);
    } finally {
      await other.close();
    }
    expect((await fetch(`${site.url}/status/410`)).status).toBe(410);
    expect((await fetch(`${site.noSitemapUrl}/robots.txt`)).status).toBe(404);
    expect((await fetch(`${site.noSitemapUrl}/links.html`)).status).toBe(200);
  });

  it("carries the canary token in a link too, and serves a page at any /pad/ address", async () => {
    const canary = site.newCanary();
    const html = await (await fetch(`${site.url}${canary.path}`)).text();
    expect(html).toContain(`href="/canary-link/${canary.token}"`);
    expect((await fetch(`${site.url}/pad/${"a".repeat(300)}`)).status).toBe(200);
  });

  it("serves a sitemap at the conventional path only on the third origin, and logs every request", async () => {
    const before = site.requests.length;
    expect(await (await fetch(`${site.conventionalUrl}/robots.txt`)).text()).not.toMatch(/Sitemap:/i);
    const xml = await (await fetch(`${site.conventionalUrl}/sitemap.xml`)).text();
    expect(xml).toContain(`<loc>${site.conventionalUrl}${CONVENTIONAL_ONLY_PAGE}</loc>`);
    expect(await (await fetch(`${site.conventionalUrl}/links.html`)).text()).not.toContain(CONVENTIONAL_ONLY_PAGE);
    expect(site.requests.slice(before)).toEqual([
      `${site.conventionalUrl}/robots.txt`,
      `${site.conventionalUrl}/sitemap.xml`,
      `${site.conventionalUrl}/links.html`,
    ]);
  });

  it("holds the facts site-facts.ts states (their rendering is proven in real-pages.test.ts)", async () => {
    const shot = await (await fetch(`${site.url}${SHOT_PAGE.path}`)).text();
    const { left, top, width, height } = SHOT_PAGE.box;
    for (const rule of [
      `height: ${SHOT_PAGE.height}px`,
      `left: ${left}px`,
      `top: ${top}px`,
      `width: ${width}px`,
      `height: ${height}px`,
    ])
      expect(shot).toContain(rule);
    expect(shot).toContain(`id="${SHOT_PAGE.selector.slice(1)}"`);
    const product = await (await fetch(`${site.url}${PRODUCT_PAGE.path}`)).text();
    for (const v of [PRODUCT_PAGE.product.name, PRODUCT_PAGE.product.sku, ...PRODUCT_PAGE.plans.map((p) => p.plan)])
      expect(product).toContain(v);
    for (const p of SITEMAP_PAGES) expect(await (await fetch(`${site.url}${p.path}`)).text()).toContain(p.phrase);
  });

  it("keeps requests inside the site folder", async () => {
    expect((await fetch(`${site.url}/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});

describe("starting the fixture site", () => {
  it("refuses a port in use with a clear error and leaves nothing listening", async () => {
    // a port held here whose port below is free (other test files listen on ports of their own meanwhile): the
    // site asked for on taken - 1 gets its first port and not its second
    const { holder, taken } = await heldPortAboveAFreeOne();
    try {
      const attempt = startFixtureServer(taken - 1);
      await expect(attempt).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
      // the half-started first origin was closed again: its port can be taken at once
      const again = await startFixtureServer(taken - 1).catch((err: Error) => err);
      expect(again).toBeInstanceOf(Error);
      expect((again as Error).message).not.toMatch(new RegExp(`:${taken - 1} `));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

/** A loopback port held by a server of this test, and free just below it (tried a few times: ports come and go). */
async function heldPortAboveAFreeOne(): Promise<{ holder: Server; taken: number }> {
  const listen = (port: number) =>
    new Promise<Server | null>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(null));
      server.listen(port, "127.0.0.1", () => resolve(server));
    });
  for (let i = 0; i < 20; i++) {
    const holder = (await listen(0)) as Server;
    const taken = (holder.address() as AddressInfo).port;
    const below = taken > 1024 ? await listen(taken - 1) : null;
    if (below) {
      await new Promise((resolve) => below.close(resolve));
      return { holder, taken };
    }
    await new Promise((resolve) => holder.close(resolve));
  }
  throw new Error("no free port below a held one in 20 tries");
}
