// Test support: a website served on 127.0.0.1 by the test itself (node:http, port 0), from a table of routes.
// `{{BASE}}` in a text body becomes the site's own origin, so pages can link to themselves absolutely.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export interface Page {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** wait this long before answering (timeouts) */
  delayMs?: number;
  /** gzip the body once `{{BASE}}` is filled in (a .gz file, not a Content-Encoding) */
  gzip?: boolean;
}

export type Route = Page | ((req: IncomingMessage, res: ServerResponse, base: string) => void);

export interface FixtureSite {
  /** the origin, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** paths requested so far, in order */
  hits: string[];
  close(): Promise<void>;
}

/** Serves `routes` on `host` (127.0.0.1; another loopback address such as 127.0.0.2 makes a second, "internal" host). */
export async function serveSite(routes: Record<string, Route>, host = "127.0.0.1"): Promise<FixtureSite> {
  const hits: string[] = [];
  let base = "";
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", base).pathname;
    hits.push(path);
    const route = routes[path];
    if (typeof route === "function") return route(req, res, base);
    const page: Page = route ?? { status: 404, type: "text/html", body: "<h1>Not found</h1>" };
    const send = () => {
      const text = typeof page.body === "string" ? page.body.replaceAll("{{BASE}}", base) : page.body;
      const body = page.gzip && text !== undefined ? gzipSync(text) : text;
      res.writeHead(page.status ?? 200, { "content-type": page.type ?? "text/html; charset=utf-8", ...page.headers });
      res.end(body);
    };
    if (!page.delayMs) return send();
    const t = setTimeout(() => {
      timers.delete(t);
      if (!res.destroyed) send();
    }, page.delayMs);
    timers.add(t);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://${host}:${port}`;
  return {
    url: base,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
