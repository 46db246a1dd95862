// Test glue: a generated site on 127.0.0.1 for deepcrawl tests. `pages` article pages /p/0 … linked as a binary
// tree from the home page (so `all` reaches every one breadth first), all declared in /sitemap.xml, a robots.txt
// that disallows /private/ (linked and declared too, so obeying it is visible), an optional delay per page, and a
// count of the requests each path received.
import { createServer, type Server } from "node:http";

export interface TestSite {
  url: string;
  /** requests per path */
  hits: Map<string, number>;
  pagePaths: string[];
  close(): Promise<void>;
}

export interface TestSiteOptions {
  pages: number;
  /** ms before each article page answers */
  delayMs?: number;
  /** robots.txt body (default: disallow /private/) */
  robots?: string;
  /** words of filler text added to each article page (default none): a site of heavier pages */
  fillerWords?: number;
}

export const phraseOf = (i: number) => `unique-phrase-${i}-of-the-fixture`;

const article = (i: number, n: number, fillerWords = 0) => {
  const filler = fillerWords > 0 ? `\n<p>${"More words of filler text. ".repeat(Math.ceil(fillerWords / 5))}</p>` : "";
  const links = [2 * i + 1, 2 * i + 2].filter((k) => k < n).map((k) => `<li><a href="/p/${k}">Page ${k}</a></li>`);
  return `<!doctype html><html><head><title>Page ${i}</title></head><body>
<nav><a href="/">Home</a></nav>
<main><article><h1>Page ${i}</h1>
<p>This is article page number ${i} of the generated fixture site; it carries the phrase ${phraseOf(i)} so a test
can find it in the package. It has enough words to count as a readable article for the extractor, more than thirty
words in this paragraph alone, which is what the crawl engine expects before it trusts the static text.</p>${filler}
<ul>${links.join("")}</ul></article></main></body></html>`;
};

export async function startTestSite(o: TestSiteOptions): Promise<TestSite> {
  const hits = new Map<string, number>();
  const pagePaths = Array.from({ length: o.pages }, (_, i) => `/p/${i}`);
  let base = "";
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (path === "/robots.txt")
      return send(200, "text/plain", o.robots ?? `User-agent: *\nDisallow: /private/\nSitemap: ${base}/sitemap.xml\n`);
    if (path === "/sitemap.xml") {
      const locs = [...pagePaths, "/private/secret"].map((p) => `<url><loc>${base}${p}</loc></url>`).join("");
      return send(
        200,
        "application/xml",
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`,
      );
    }
    if (path === "/")
      return send(
        200,
        "text/html",
        `<!doctype html><html><head><title>Home</title></head><body><main><h1>Home</h1><p>The home page of the generated fixture site, with links to the first articles and to a private page robots.txt disallows, so a crawler that ignores it would be seen fetching it.</p><a href="/p/0">First</a> <a href="/p/1">Second</a> <a href="/private/secret">Private</a> <a href="https://elsewhere.invalid/">Elsewhere</a></main></body></html>`,
      );
    const m = /^\/p\/(\d+)$/.exec(path);
    if (m && Number(m[1]) < o.pages) {
      const answer = () => send(200, "text/html; charset=utf-8", article(Number(m[1]), o.pages, o.fillerWords));
      if (o.delayMs) setTimeout(answer, o.delayMs);
      else answer();
      return;
    }
    if (path.startsWith("/private/")) return send(200, "text/html", "<html><title>Private</title><p>secret</p></html>");
    send(404, "text/html", "<html><title>Not found</title></html>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: base,
    hits,
    pagePaths,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
