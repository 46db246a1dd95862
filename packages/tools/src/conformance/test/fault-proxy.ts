// A fault-injecting HTTP proxy for the suite's own tests: it sits in front of a correct target (the mock) and
// breaks one thing, so a test can assert that the suite notices, with the right check id. The Host header is
// forwarded as is, so absolute URLs the target builds (zipUrl) point back through the proxy.
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Fault {
  /** what reaches the target instead of the request sent (a target that ignores part of it) */
  request?(req: ProxiedRequest): ProxiedRequest;
  /** forward the request once more, its answer discarded (a second charge) */
  duplicate?(req: ProxiedRequest): boolean;
  /** a hidden extra call to the target after this one (e.g. a charge) */
  sideCall?(req: ProxiedRequest, res: ProxiedResponse): ProxiedRequest | null;
  rewrite?(req: ProxiedRequest, res: ProxiedResponse): ProxiedResponse | Promise<ProxiedResponse>;
}

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

function forward(target: URL, req: ProxiedRequest): Promise<ProxiedResponse> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
  headers["content-length"] = String(req.body.length);
  return new Promise((resolve, reject) => {
    const out = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 502, headers: { ...res.headers }, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    out.on("error", reject);
    out.end(req.body);
  });
}

export function jsonOf(res: ProxiedResponse): unknown {
  return JSON.parse(res.body.toString("utf8"));
}

export function withJson(res: ProxiedResponse, value: unknown): ProxiedResponse {
  return { ...res, body: Buffer.from(JSON.stringify(value)) };
}

const HOP_BY_HOP = new Set(["transfer-encoding", "connection", "keep-alive"]);

export async function startFaultProxy(targetUrl: string, fault: Fault): Promise<RunningProxy> {
  const target = new URL(targetUrl);
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (c: Buffer) => chunks.push(c));
    incoming.on("end", async () => {
      const req: ProxiedRequest = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        headers: { ...incoming.headers },
        body: Buffer.concat(chunks),
      };
      try {
        const reaching = fault.request?.(req) ?? req;
        if (fault.duplicate?.(req)) await forward(target, reaching);
        let res = await forward(target, reaching);
        const side = fault.sideCall?.(req, res);
        if (side) await forward(target, side);
        if (fault.rewrite) res = await fault.rewrite(req, res);
        const headers: Record<string, string | string[]> = {};
        // hop-by-hop headers describe the target's connection, not this one (RFC 9110 §7.6.1): the target's
        // `keep-alive: timeout=72` forwarded here made clients reuse sockets this server had closed after 5 s
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
        headers["content-length"] = String(res.body.length);
        outgoing.writeHead(res.status, headers);
        outgoing.end(res.body);
      } catch (err) {
        outgoing.writeHead(599);
        outgoing.end(String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
