// A robots.txt with a huge wildcard rule (issue 38): one 500,000-character `Disallow: /**…*` that robots-parser's
// matcher would walk once per link (pattern × path length each time) and that, obeyed, disallows every path. The
// rule is dropped (it is longer than MAX_ROBOTS_RULE_CHARS), so /sitemap still finds the Sitemap line after it and a
// deepcrawl of the site completes, obeying the file's real rule (`Disallow: /private`) and nothing else.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, pollUntil, startDeepcrawl } from "../../../../test-support/deepcrawl-client.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";

const KEY = "hostile-robots-key";
const dir = mkdtempSync(join(tmpdir(), "plumbline-hostile-robots-"));
let site: FixtureSite;
let ref: RunningReference;

const page = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Text of ${title}.</p>${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join("")}</body></html>`;

beforeAll(async () => {
  site = await serveSite({
    "/robots.txt": {
      type: "text/plain",
      body: `User-agent: *\nDisallow: /*${"*".repeat(500_000)}\nDisallow: /private\nSitemap: {{BASE}}/sitemap.xml\n`,
    },
    "/sitemap.xml": {
      type: "application/xml",
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
        "/",
        "/a.html",
        "/private/x.html",
      ]
        .map((p) => `<url><loc>{{BASE}}${p}</loc></url>`)
        .join("")}</urlset>`,
    },
    "/": { body: page("Home", ["/a.html", "/b.html", "/private/y.html"]) },
    "/a.html": { body: page("A") },
    "/b.html": { body: page("B") },
    "/private/x.html": { body: page("Private X") },
    "/private/y.html": { body: page("Private Y") },
  });
  ref = await startReference({
    port: 0,
    dataDir: dir,
    allowPrivateNetwork: true,
    keys: [{ key: KEY, credits: 1000 }],
    rateLimits: { perAccount: 0 },
    authServer: false,
    deepcrawlSettings: { hostDelayMs: 0, pollMs: 50 },
  });
}, 60_000);
afterAll(async () => {
  await ref?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a robots.txt with a 500,000-character wildcard rule", () => {
  it("/sitemap reads the Sitemap line after it", async () => {
    const res = await fetch(`${ref.url}/sitemap`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${site.url}/` }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { links: string[] };
    expect(body.links).toEqual([`${site.url}/`, `${site.url}/a.html`, `${site.url}/private/x.html`]);
  });

  for (const type of ["sitemap", "all"] as const) {
    it(`a deepcrawl (${type}) completes, obeying the file's other rule only`, async () => {
      const res = await startDeepcrawl(ref.url, KEY, { url: `${site.url}/`, type });
      expect(res.status).toBe(202);
      const { taskId } = (await res.json()) as { taskId: string };
      const { last } = await pollUntil(ref.url, taskId, 30_000, KEY);
      expect(last.status).toBe("completed");
      const { manifest } = await download(last.zipUrl as string);
      const urls = (manifest as { pages: Array<{ url: string }> }).pages.map((p) => new URL(p.url).pathname).sort();
      expect(urls).toEqual(type === "sitemap" ? ["/", "/a.html"] : ["/", "/a.html", "/b.html"]);
      expect(site.hits.filter((h) => h.startsWith("/private"))).toEqual([]);
    });
  }
});
