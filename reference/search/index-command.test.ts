// `plumbline reference index add URL...` (issue 14): a site's sitemap fills the index of the database the server
// then uses; a site that cannot be read fails the command (exit 1) with the reason, and bad arguments are refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../store/open-database.ts";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { CORPUS, corpusHtml } from "../test/relevance-corpus.ts";
import { createPageIndex } from "./create-page-index.ts";
import { indexCommand } from "./index-command.ts";

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

describe("plumbline reference index", () => {
  it("add fills the index from the sitemap; the pages are then searchable", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const code = await indexCommand(["add", site.url, "--allow-private-network", "--data-dir", dir]);
      expect(code).toBe(0);
      expect(log.mock.calls.flat().join("\n")).toMatch(/5 pages indexed, 1 failed/);
    } finally {
      log.mockRestore();
    }
    const opened = await openDatabase({ dataDir: dir });
    try {
      const index = await createPageIndex(opened);
      expect(await index.count()).toBe(5);
      const hits = await index.search({ query: "sourdough loaves", limit: 5, offset: 0 });
      expect(hits.map((h) => new URL(h.url).pathname)).toEqual(["/sourdough.html"]);
      // not in the sitemap: not fetched
      expect(await index.search({ query: "bicycle", limit: 5, offset: 0 })).toEqual([]);
      await index.close?.();
    } finally {
      await opened.close();
    }
  });

  it("refuses loopback sites without --allow-private-network, and bad arguments", async () => {
    const quiet = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await indexCommand(["add", site.url, "--data-dir", dir])).toBe(1);
    } finally {
      quiet.mockRestore();
    }
    await expect(indexCommand(["add", "--data-dir", dir])).rejects.toThrow(/at least one site URL/);
    await expect(indexCommand(["add", "ftp://x", "--data-dir", dir])).rejects.toThrow(/not an http/);
    await expect(indexCommand(["drop"])).rejects.toThrow(/add or count/);
  });
});
