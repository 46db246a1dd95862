// The proxy's request handler: read the request (bounded), refuse it when `--errors` finds it invalid, pick who
// answers (the upstream, or in hybrid mode the mock), forward, fall back when told to, and hand the finished
// exchange to the sinks (judge, recorder). A failure of the proxy's own is answered in the contract's error shape.
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ErrorCode, type SerializedError, serializeError } from "@plumbline-kit/contract";
import type { Exchange, ExchangeSink, HeaderList } from "./exchange.ts";
import { type ForwardSettings, send, type Target } from "./forwarder.ts";
import { flat, headerValue, pairsOf } from "./hop-headers.ts";
import { createInFlight } from "./in-flight.ts";
import type { OperationMatcher } from "./operation-match.ts";

export interface Fallback {
  target: Target;
  /** upstream statuses answered by the fallback instead */
  statuses: ReadonlySet<number>;
}

export interface HandlerOptions {
  matcher: OperationMatcher;
  upstream: Target;
  /** who answers a request (hybrid mode); the upstream when absent */
  route?: (exchange: Exchange) => Target;
  /** called before a request is sent to a target (the hybrid mode opens the caller's account in the mock) */
  beforeSend?: (target: Target, exchange: Exchange) => void;
  fallback?: Fallback;
  /** `--errors`: the contract's refusal of an invalid request, or null to forward it */
  refuse?: (exchange: Exchange) => SerializedError | null;
  sinks: ExchangeSink[];
  settings: ForwardSettings;
  maxRequestBytes: number;
  /** whether the server cut this request's connection for not arriving in time (its request timeout) */
  timedOut?: (req: IncomingMessage) => boolean;
  /** the Link header the service sends on every answer (D-headers), for the proxy's own answers */
  linkHeader: string;
  /** the proxy's own routes under /__proxy/; true when handled */
  admin: (req: IncomingMessage, res: ServerResponse) => boolean;
}

type Body = { ok: true; body: Buffer } | { ok: false; code: ErrorCode };

function readBody(req: IncomingMessage, max: number, timedOut?: (req: IncomingMessage) => boolean): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve({ ok: false, code: "PLB_BODY_TOO_LARGE" });
        req.removeAllListeners("data");
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve({ ok: true, body: Buffer.concat(chunks) }));
    // cut off: by the client, or by the server's request timeout (the client was answered PLB_REQUEST_TIMEOUT)
    const cut = () => resolve({ ok: false, code: timedOut?.(req) ? "PLB_REQUEST_TIMEOUT" : "PLB_BODY_INCOMPLETE" });
    req.on("error", cut);
    req.on("aborted", cut);
  });
}

const SANE_ID = /^[\x21-\x7e]{1,128}$/;
let generated = 0;

export function createProxyHandler(o: HandlerOptions) {
  let seq = 0;
  const inFlight = createInFlight();

  /** The proxy answers itself, as the service would: its error shape, x-request-id and Link (D-headers). */
  function answer(exchange: Exchange, res: ServerResponse, error: SerializedError, extra: HeaderList = []) {
    const sent = headerValue(exchange.request.headers, "x-request-id");
    const requestId = sent && SANE_ID.test(sent) ? sent : `plbproxy_${process.pid}_${++generated}`;
    const body = Buffer.from(JSON.stringify(error.body));
    const headers: HeaderList = [
      ["content-type", `${error.contentType}; charset=utf-8`],
      ["content-length", String(body.length)],
      ["x-request-id", requestId],
      ["link", o.linkHeader],
      ...extra,
    ];
    exchange.response = { status: error.status, statusText: "", httpVersion: "1.1", headers, body };
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(error.status, flat(headers));
      res.end(body);
    }
  }

  function done(exchange: Exchange) {
    inFlight.end(exchange);
    for (const sink of o.sinks) sink.add(exchange);
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.url?.startsWith("/__proxy/") && o.admin(req, res)) return;
    const id = ++seq;
    const startedAt = Date.now();
    const headers = pairsOf(req.rawHeaders);
    const from = { clientAddress: req.socket.remoteAddress ?? "", host: req.headers.host };
    const path = req.url ?? "/";
    const match = o.matcher(req.method ?? "GET", path);
    const exchange: Exchange = {
      id,
      startedAt,
      timings: { send: 0, wait: 0, receive: 0 },
      servedBy: "upstream",
      operationId: match?.op.operationId,
      request: { method: req.method ?? "GET", path, httpVersion: req.httpVersion, headers, body: Buffer.alloc(0) },
    };
    inFlight.start(exchange);
    try {
      const read = await readBody(req, o.maxRequestBytes, o.timedOut);
      if (!read.ok) {
        exchange.request.unread = read.code;
        exchange.servedBy = "proxy";
        answer(exchange, res, serializeError(read.code));
        return;
      }
      exchange.request.body = read.body;
      const refusal = o.refuse?.(exchange) ?? null;
      if (refusal) {
        exchange.servedBy = "proxy";
        answer(exchange, res, refusal);
        return;
      }
      const first = o.route?.(exchange) ?? o.upstream;
      await forwardTo(first, exchange, res, from, first === o.upstream ? o.fallback : undefined);
    } catch (err) {
      // a bug of the proxy's: the client still gets the contract's 500, and the exchange is kept
      exchange.error = `proxy error: ${(err as Error).stack ?? String(err)}`;
      exchange.servedBy = "proxy";
      answer(exchange, res, serializeError("PLB_INTERNAL"));
    } finally {
      done(exchange);
    }
  };

  async function forwardTo(
    target: Target,
    exchange: Exchange,
    res: ServerResponse,
    from: { clientAddress: string; host: string | undefined },
    fallback: Fallback | undefined,
  ): Promise<void> {
    exchange.servedBy = target.name;
    exchange.upstream = target === o.upstream ? target.base.href : undefined;
    o.beforeSend?.(target, exchange);
    const outcome = await send({ target, exchange, res, from, handBack: fallback?.statuses, settings: o.settings });
    if (outcome.kind === "answered") return;
    const why = outcome.kind === "status" ? `the upstream answered ${outcome.status}` : outcome.reason;
    if (fallback) {
      exchange.fallbackFrom = why;
      exchange.timings = { send: 0, wait: 0, receive: 0 };
      return forwardTo(fallback.target, exchange, res, from, undefined);
    }
    // no answer at all: the client gets the contract's 502, and the exchange records what went wrong
    exchange.error = why;
    exchange.servedBy = "proxy";
    answer(exchange, res, serializeError("PLB_UPSTREAM_FAILED", { message: `Bad gateway: ${why}` }));
    exchange.response = undefined;
  }
}
