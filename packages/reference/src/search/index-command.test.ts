// `plumbline reference index add URL...` (issue 14): a site's sitemap fills the index of the database the server
// then uses; a site that cannot be read fails the command (exit 1) with the reason, and bad arguments are refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plumblineInProcess } from "../../../../test-support/cli-in-process.ts";
import { openDatabase } from "../store/open-database.ts";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { CORPUS, corpusHtml } from "../test/relevance-corpus.ts";
import { createPageIndex } from "./create-page-index.ts";

let site: FixtureSite;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-index-cmd-"));
  const listed = CORPUS.slice(0, 4);
  site = await serveSite({
    "/": { body: "<html><body><h1>Home</h1><p>Nothing about bread here.</p></body></html>" },
    "/robots.txt": { type: "text/plain", body: "User-agent: *\nSitemap: {{BASE}}/sitemap.xml\n" },
    "/sitemap.xml": {
      type: "application/xml",
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed
        .map((p) => `<url><loc>{{BASE}}${p.path}</loc></url>`)
        .join("")}<url><loc>{{BASE}}/missing.html</loc></url></urlset>`,
    },
    ...Object.fromEntries(CORPUS.map((p) => [p.path, { body: corpusHtml(p) }])),
  });
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `plumbline reference index ARGS` in this process: the exit code and what it printed */
const index = (...args: string[]) => plumblineInProcess(["reference", "index", ...args]);

describe("plumbline reference index", () => {
  it("add fills the index from the sitemap; the pages are then searchable", async () => {
    const added = await index("add", site.url, "--allow-private-network", "--data-dir", dir);
    expect(added.code, added.out).toBe(0);
    expect(added.out).toMatch(/5 pages indexed, 1 failed/);
    expect(await index("count", "--data-dir", dir)).toMatchObject({ code: 0, out: expect.stringMatching(/^5 pages/) });
    const opened = await openDatabase({ dataDir: dir });
    try {
      const pages = await createPageIndex(opened);
      expect(await pages.count()).toBe(5);
      const hits = await pages.search({ query: "sourdough loaves", limit: 5, offset: 0 });
      expect(hits.map((h) => new URL(h.url).pathname)).toEqual(["/sourdough.html"]);
      // not in the sitemap: not fetched
      expect(await pages.search({ query: "bicycle", limit: 5, offset: 0 })).toEqual([]);
      await pages.close?.();
    } finally {
      await opened.close();
    }
  });

  it("refuses loopback sites without --allow-private-network, and bad arguments", async () => {
    expect((await index("add", site.url, "--data-dir", dir)).code).toBe(1);
    expect(await index("add", "--data-dir", dir)).toEqual({
      code: 2,
      out: "plumbline reference index add: missing required argument 'url'\n(plumbline reference index add --help lists what it takes)",
    });
    expect(await index("add", "ftp://x", "--data-dir", dir)).toMatchObject({
      code: 2,
      out: expect.stringMatching(/not an http/),
    });
    expect(await index("drop")).toMatchObject({ code: 2, out: expect.stringMatching(/unknown command 'drop'/) });
    expect(await index("add", site.url, "--limit", "0", "--data-dir", dir)).toMatchObject({
      code: 2,
      out: expect.stringMatching(/option '--limit <n>' argument '0' is invalid\. Expected a whole number >= 1\./),
    });
  });
});
