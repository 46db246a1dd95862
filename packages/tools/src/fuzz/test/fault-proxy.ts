// A fault-injecting HTTP proxy in front of the mock (issue 6 "Proven to bite"): each fault turns the mock into a
// deliberately broken implementation the fuzzer must catch. Everything else, the admin API included, passes through.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Contract } from "@plumbline-kit/contract";
import { baseBody } from "@plumbline-kit/contract/bounds";

export type Fault =
  /** (a) an out-of-range max_results is clamped into range instead of refused: 200 where 422 is due */
  | "accept-out-of-range"
  /** (b) a 422 for unknown properties is swallowed: the call is re-sent without them */
  | "accept-unknown-properties"
  /** (c) a refused call is charged: the proxy spends the price of a valid call before answering the 400/422 */
  | "charge-rejected"
  /** (d) batch summaries count one entry too many */
  | "miscount-batch-summary"
  /** (e) a deepcrawl task never reports completed: it stays processing (for the stateful model) */
  | "deepcrawl-stalls"
  /** (f) the connection is dropped without an answer for a sitemap of type "all" */
  | "drop-connection";

interface Answer {
  /** drop the connection instead of answering */
  drop?: boolean;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type Obj = Record<string, unknown>;

export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  /** called each time the fault changes what the target did or answered (for counting what a journey exercises) */
  onApplied?(): void;
}

export async function startFaultProxy(
  upstream: string,
  fault: Fault,
  contract: Contract,
  options: FaultProxyOptions = {},
): Promise<FaultProxy> {
  const applied = () => options.onApplied?.();
  const up = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const forward = (req: http.IncomingMessage, body: Buffer): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: up.host, "content-length": String(body.length) };
      const r = http.request(
        { host: up.hostname, port: up.port, method: req.method, path: req.url, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      r.on("error", reject);
      r.end(body);
    });
  const json = (b: Buffer): unknown => {
    try {
      return JSON.parse(b.toString("utf8"));
    } catch {
      return undefined;
    }
  };
  const operation = (path: string | undefined) =>
    contract.contractOperations.find((o) => o.method === "post" && o.path === path);

  async function handle(req: http.IncomingMessage, body: Buffer): Promise<Answer> {
    const sent = json(body);
    const op = operation(req.url);
    if (fault === "drop-connection" && req.url === "/sitemap" && (sent as Obj | null)?.type === "all") {
      applied();
      return { drop: true, status: 0, headers: {}, body: Buffer.alloc(0) };
    }
    if (fault === "accept-out-of-range" && op && sent !== null && typeof sent === "object") {
      const clamp = (e: unknown) => {
        const m = (e as Obj)?.max_results;
        return typeof m === "number" && (m < 1 || m > 50)
          ? { ...(e as Obj), max_results: Math.min(50, Math.max(1, m)) }
          : e;
      };
      const fixed = Array.isArray(sent) ? sent.map(clamp) : clamp(sent);
      if (JSON.stringify(fixed) !== JSON.stringify(sent)) applied();
      return forward(req, Buffer.from(JSON.stringify(fixed)));
    }
    const answer = await forward(req, body);
    if (fault === "deepcrawl-stalls" && req.url?.startsWith("/deepcrawl/status/")) {
      const status = json(answer.body) as Obj | undefined;
      if (status?.status !== "completed") return answer;
      const { r2Key: _r, zipUrl: _z, ...rest } = status;
      applied();
      return { ...answer, body: Buffer.from(JSON.stringify({ ...rest, status: "processing" })) };
    }
    if (!op) return answer;
    const out = json(answer.body) as Obj | undefined;
    if (fault === "accept-unknown-properties" && answer.status === 422 && Array.isArray(out?.errors)) {
      const errors = out.errors as Array<{ field: string; code: string }>;
      if (errors.every((e) => e.code === "additionalProperties")) {
        let fixed = structuredClone(sent) as Obj;
        for (const e of errors) fixed = without(fixed, e.field);
        applied();
        return forward(req, Buffer.from(JSON.stringify(fixed)));
      }
    }
    if (fault === "charge-rejected" && (answer.status === 400 || answer.status === 422)) {
      applied();
      await forward(req, Buffer.from(JSON.stringify(baseBody(op))));
    }
    if (fault === "miscount-batch-summary" && answer.status === 200 && out?.summary) {
      const summary = out.summary as Obj;
      summary.total = Number(summary.total) + 1;
      applied();
      return { ...answer, body: Buffer.from(JSON.stringify(out)) };
    }
    return answer;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, Buffer.concat(chunks)).then(
        (a) => {
          if (a.drop) return res.destroy();
          const headers = { ...a.headers, "content-length": String(a.body.length) };
          delete headers["transfer-encoding"];
          res.writeHead(a.status, headers).end(a.body);
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A copy without the member at `pointer` (e.g. `/viewport/colour`, `/1/extra`). */
function without(body: Obj, pointer: string): Obj {
  const tokens = pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: Obj = body;
  for (const t of tokens.slice(0, -1)) node = node[t] as Obj;
  delete node[tokens[tokens.length - 1]];
  return body;
}
