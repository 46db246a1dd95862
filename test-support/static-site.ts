// A plain static file server for tests (issue 27): a folder served as any static host serves one (a file by its
// path, its type by its extension, `index.html` for a folder, 404 for anything else; no plumbline code), so a test
// proves the fixture export works off plumbline's own fixture server. It appends each request's URL to a log file
// (one `http://host/path` per line), as a host's access log would record it. Test glue.
import { appendFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".gz": "application/gzip",
};

export interface StaticSite {
  url: string;
  /** the folder it serves; may be filled after the server started (files are read per request) */
  root: string;
  close(): Promise<void>;
}

export async function startStaticSite(root: string, logFile?: string): Promise<StaticSite> {
  const server = createServer(async (req, res) => {
    if (logFile) appendFileSync(logFile, `http://${req.headers.host}${req.url}\n`);
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      res.writeHead(404).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<!doctype html><title>Not found</title><h1>Not found</h1>");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    root,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
