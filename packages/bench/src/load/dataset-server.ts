// Serves an article dataset on loopback as the pages were served: `/pages/<id>.html`, text/html with the charset
// the page declares, gzip-encoded to a client that accepts it (the stored bytes as they are), plain otherwise.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ArticlePage } from "./article-dataset.ts";

export interface DatasetServer {
  url: string;
  pageUrl(page: ArticlePage): string;
  close(): Promise<void>;
}

export async function serveDataset(pages: readonly ArticlePage[], host = "127.0.0.1"): Promise<DatasetServer> {
  const byPath = new Map(pages.map((p) => [`/pages/${p.id}.html`, p]));
  const server = createServer((req, res) => {
    const page = req.method === "GET" || req.method === "HEAD" ? byPath.get((req.url ?? "").split("?")[0]) : undefined;
    if (!page) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not in the dataset\n");
      return;
    }
    const gzip = /\bgzip\b/i.test(String(req.headers["accept-encoding"] ?? ""));
    const body = gzip ? page.gzip : page.html;
    res.writeHead(200, {
      "content-type": `text/html; charset=${page.charset}`,
      "content-length": body.length,
      vary: "accept-encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  return {
    url,
    pageUrl: (page) => `${url}/pages/${page.id}.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
