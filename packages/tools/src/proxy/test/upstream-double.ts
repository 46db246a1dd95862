// A test double of the upstream: a small server in front of a correct target (the mock) that counts every request
// it sees and, when told, breaks answers the way a faulty deployment would (wrong field types, an unlisted status,
// a batch summary that does not add up, a task that leaves completed), answers 502 or resets, or gzips. Test glue.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Faults {
  /** POST /search (single): results[0].title becomes a number */
  wrongTypes?: boolean;
  /** POST /sitemap: answered 418, a status the operation does not list */
  unlistedStatus?: boolean;
  /** POST /search (batch): summary.totalCost is off by 5 */
  badSummary?: boolean;
  /** GET /deepcrawl/status/{id}: once a task was answered completed, it is answered processing afterwards */
  leaveCompleted?: boolean;
  /** these paths (prefix) are answered 502 in the contract's shape, without reaching the target */
  badGateway?: string[];
  /** these paths (prefix) get their connection reset, no answer */
  reset?: string[];
  /** JSON answers are gzipped when the client accepts gzip */
  gzip?: boolean;
}

export interface UpstreamDouble {
  url: string;
  seen: Seen[];
  count(method: string, pathPrefix: string): number;
  close(): Promise<void>;
}

function forward(target: URL, method: string, path: string, headers: Seen["headers"], body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const out = request(
        // the Host header is passed on as is: absolute URLs the target builds (zipUrl) name this double
        { host: target.hostname, port: target.port, method, path, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(body);
    },
  );
}

export async function startUpstreamDouble(targetUrl: string, faults: Faults = {}): Promise<UpstreamDouble> {
  const target = new URL(targetUrl);
  const seen: Seen[] = [];
  const completed = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? "/";
      seen.push({ method: req.method ?? "GET", path, headers: { ...req.headers }, body: body.toString("utf8") });
      if (faults.reset?.some((p) => path.startsWith(p))) return req.socket.destroy();
      if (faults.badGateway?.some((p) => path.startsWith(p))) {
        const err = { ok: false, error: "Bad Gateway", message: "upstream down", code: "PLB_UPSTREAM_FAILED" };
        res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify(err));
        return;
      }
      try {
        const headers = { ...req.headers };
        delete headers["accept-encoding"];
        const answer = await forward(target, req.method ?? "GET", path, headers, body);
        let json: unknown;
        const isJson = String(answer.headers["content-type"] ?? "").includes("json");
        if (isJson) json = JSON.parse(answer.body.toString("utf8"));
        let status = answer.status;
        const sent = body.length ? JSON.parse(body.toString("utf8")) : undefined;
        if (faults.wrongTypes && path === "/search" && !Array.isArray(sent) && status === 200)
          (json as { results: Array<{ title: unknown }> }).results[0].title = 42;
        if (faults.unlistedStatus && path === "/sitemap") status = 418;
        if (faults.badSummary && path === "/search" && Array.isArray(sent) && status === 200)
          (json as { summary: { totalCost: number } }).summary.totalCost += 5;
        if (faults.leaveCompleted && path.startsWith("/deepcrawl/status/")) {
          const task = json as { status?: string; taskId: string };
          if (completed.has(task.taskId)) task.status = "processing";
          else if (task.status === "completed") completed.add(task.taskId);
        }
        const out = { ...answer.headers };
        delete out["content-length"];
        delete out["transfer-encoding"];
        delete out.connection;
        delete out["keep-alive"];
        let bytes = isJson ? Buffer.from(JSON.stringify(json)) : answer.body;
        if (faults.gzip && isJson && String(req.headers["accept-encoding"] ?? "").includes("gzip")) {
          bytes = gzipSync(bytes);
          out["content-encoding"] = "gzip";
        }
        out["content-length"] = String(bytes.length);
        res.writeHead(status, out).end(bytes);
      } catch (err) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    count: (method, prefix) => seen.filter((s) => s.method === method && s.path.startsWith(prefix)).length,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
