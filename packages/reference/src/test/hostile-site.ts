// The hostile pages of issue 12, served from loopback: each once froze or bloated the reference. Test glue.
import { randomBytes } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";

export interface HostileSite {
  url: string;
  close(): Promise<void>;
}

const html = (body: string) => `<!doctype html><html><head><title>hostile</title></head><body>${body}</body></html>`;

function pages(): Record<string, (res: ServerResponse) => void> {
  const deep100k = html(`${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}`); // 1.1 MB
  const deep2k = html(`${"<div>".repeat(2_000)}${"a few words of text ".repeat(40)}${"</div>".repeat(2_000)}`);
  const links = html(Array.from({ length: 230_000 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join("")); // 4.7 MB
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 32)); // 64 MiB of spaces in ~64 KB
  const binary = randomBytes(64 * 1024);
  const send =
    (type: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    (res: ServerResponse) =>
      res.writeHead(200, { "content-type": type, ...headers }).end(body);
  return {
    "/deep-100k": send("text/html", deep100k),
    "/deep-2k": send("text/html", deep2k),
    "/links-230k": send("text/html", links),
    "/gzip-bomb": send("text/html", bomb, { "content-encoding": "gzip" }),
    "/binary-as-html": send("text/html; charset=utf-8", binary),
    "/ok": send(
      "text/html",
      html(`<article><h1>Fine</h1><p>${"An ordinary paragraph of words. ".repeat(30)}</p></article>`),
    ),
    "/endless": (res) => {
      res.writeHead(200, { "content-type": "text/html" });
      const chunk = Buffer.alloc(64 * 1024, "<p>more</p>");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    },
    // answers nothing, ever (the batch tests)
    "/never": () => {},
  };
}

export async function startHostileSite(): Promise<HostileSite> {
  const routes = pages();
  const server: Server = createServer((req, res) => {
    const route = routes[(req.url ?? "/").split("?")[0]];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
