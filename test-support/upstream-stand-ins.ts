// Upstream stand-ins for the reference's tests: the trending platforms (GitHub's trending page, the Hacker News API)
// answering their recorded responses on 127.0.0.1, so a reference started with `--github-trending-url` and
// `--hackernews-trending-url` pointing here serves /trending offline. Test glue.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const recorded = (name: string) =>
  readFileSync(new URL(`../packages/reference/src/test/fixtures/trending/${name}`, import.meta.url));

export interface UpstreamStandIns {
  url: string;
  /** the reference's flags that point it here */
  args: string[];
  close(): Promise<void>;
}

export async function startUpstreamStandIns(): Promise<UpstreamStandIns> {
  const items = JSON.parse(recorded("hn-items.json").toString()) as Record<string, unknown>;
  const routes = new Map<string, { type: string; body: Buffer | string }>([
    ["/trending", { type: "text/html; charset=utf-8", body: recorded("github-trending.html") }],
    ["/v0/topstories.json", { type: "application/json", body: recorded("hn-topstories.json") }],
  ]);
  for (const [id, item] of Object.entries(items)) {
    routes.set(`/v0/item/${id}.json`, { type: "application/json", body: JSON.stringify(item) });
  }
  const server = createServer((req, res) => {
    const route = routes.get(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(route ? 200 : 404, { "content-type": route?.type ?? "text/plain" });
    res.end(route?.body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    args: ["--github-trending-url", url, "--hackernews-trending-url", url],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface EndlessConnection {
  path: string;
  /** bytes written before the client went away */
  bytes: number;
  /** resolves true when the client closed the connection while the stand-in was still sending */
  closedEarly: Promise<boolean>;
}

export interface EndlessUpstream {
  url: string;
  /** every request answered, in order */
  connections: EndlessConnection[];
  close(): Promise<void>;
}

/**
 * A hostile upstream: every request is answered 200 with a body that never ends (64 KiB chunks of `chunk`, as fast
 * as the client reads), or, with `declaredBytes`, a Content-Length of that many bytes and the same endless sending.
 * It records whether each client hung up while the body was still coming.
 */
export async function startEndlessUpstream(
  o: { contentType?: string; chunk?: string; declaredBytes?: number } = {},
): Promise<EndlessUpstream> {
  const piece = Buffer.from((o.chunk ?? " ").repeat(Math.ceil(65_536 / (o.chunk ?? " ").length)).slice(0, 65_536));
  const connections: EndlessConnection[] = [];
  const server = createServer((req, res) => {
    const headers: Record<string, string | number> = { "content-type": o.contentType ?? "application/json" };
    if (o.declaredBytes !== undefined) headers["content-length"] = o.declaredBytes;
    res.writeHead(200, headers);
    const c: EndlessConnection = { path: req.url ?? "/", bytes: 0, closedEarly: Promise.resolve(false) };
    connections.push(c);
    let gone = false;
    c.closedEarly = new Promise((resolve) =>
      res.on("close", () => {
        gone = true;
        resolve(!res.writableFinished);
      }),
    );
    const room = () => o.declaredBytes === undefined || c.bytes + piece.length <= o.declaredBytes;
    const pump = () => {
      // with a declared length, sending stops short of it (the client is meant to refuse it before reading)
      while (!gone && room()) {
        c.bytes += piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
