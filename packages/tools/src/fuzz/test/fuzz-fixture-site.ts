// The site the fuzz tests give `--fixture-url` (test glue): robots.txt → a sitemap index → a gzipped sitemap listing
// a few pages, a text file, a page that answers 410 and a page of another host (left out); anything else is 404.
// Every page holds enough words that the reference's browser fallback (fewer than 30 words) never starts
// Chromium, which would cost a second per call on this shared machine.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export interface FuzzFixtureSite {
  url: string;
  close(): Promise<void>;
}

const PROSE =
  "Harbour pilots read the tide tables before dawn, then walk the quay to check the moorings, the fenders and " +
  "the lines of every boat that came in overnight. The log records wind, swell and visibility in plain words, " +
  "so that the next watch can see at a glance what changed and what still needs attention before the ferry leaves.";

const page = (title: string, extra = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<nav><a href="/">Home</a> <a href="/guide.html">Guide</a></nav><main><article><h1>${title}</h1>` +
  `<p>${PROSE}</p><p>${PROSE.split(" ").reverse().join(" ")}</p>${extra}</article></main>` +
  `<footer>Fuzz fixture site</footer></body></html>`;

function routes(base: string): Record<string, { status?: number; type: string; body: string | Buffer }> {
  const html = "text/html; charset=utf-8";
  const pages = ["/", "/guide.html", "/articles/tides.html", "/notes.txt", "/retired.html"];
  const urlset =
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
    [...pages.map((p) => base + p), "https://example.org/plumbline-fuzz-elsewhere"]
      .map((u) => `<url><loc>${u}</loc></url>`)
      .join("") +
    "</urlset>";
  return {
    "/": {
      type: html,
      body: page("Fuzz fixture home", `<ul><li><a href="${base}/articles/tides.html">Tides</a></li></ul>`),
    },
    "/guide.html": { type: html, body: page("Guide to the harbour") },
    "/articles/tides.html": { type: html, body: page("Tides &amp; currents") },
    "/notes.txt": { type: "text/plain; charset=utf-8", body: `Notes\n\n${PROSE}\n` },
    "/retired.html": { status: 410, type: html, body: page("Retired") },
    "/robots.txt": { type: "text/plain", body: `User-agent: *\nAllow: /\n\nSitemap: ${base}/sitemap-index.xml\n` },
    "/sitemap-index.xml": {
      type: "application/xml",
      body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemaps/pages.xml.gz</loc></sitemap></sitemapindex>`,
    },
    "/sitemaps/pages.xml.gz": { type: "application/gzip", body: gzipSync(urlset) },
  };
}

export async function startFuzzFixtureSite(): Promise<FuzzFixtureSite> {
  const server = createServer((req, res) => {
    const base = `http://${req.headers.host ?? "127.0.0.1"}`;
    const route = routes(base)[new URL(req.url ?? "/", base).pathname];
    const r = route ?? { status: 404, type: "text/html; charset=utf-8", body: page("Not found") };
    res.writeHead(r.status ?? 200, { "content-type": r.type });
    res.end(r.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
