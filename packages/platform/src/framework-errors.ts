// Errors raised before a route runs, in the contract's shape like every other (issue 12; D-framework-errors).
// Node's HTTP parser refuses oversized headers, malformed requests and stalled ones before Fastify sees them
// ('clientError': Fastify's default writes 431/408/400 bodies with no `code`); Fastify's router refuses a bad URL
// encoding or an over-long path parameter (`frameworkErrors`: 400/414 echoing the path). Each answers 400, a status
// every operation lists, with a catalogue code; the route is unknown at that point, so no operation's list can
// be consulted.
import type { Socket } from "node:net";
import { clientErrorCode, serializeError } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./request-state.ts";

/**
 * How long a request may take to arrive (default 30 s): its headers (Node's request timeout, checked every
 * `checkIntervalMs`) and its body (a timer per request still reading one: Node no longer watches a request whose
 * headers are in).
 */
export interface RequestTimeouts {
  requestTimeoutMs: number;
  checkIntervalMs: number;
}

export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = { requestTimeoutMs: 30_000, checkIntervalMs: 5_000 };

/**
 * A body that has not arrived whole within `ms` of its headers answers 400 PLB_REQUEST_TIMEOUT, then the connection
 * closes. Node parses the body of a read after the request's handlers and their ticks and microtasks have run, so the
 * check is made once per turn of the event loop, in its check phase, for the requests whose headers came in that
 * turn: a small body comes in the same read as its headers, and then nothing is armed for it. A timer and two `once`
 * listeners on every POST (made, then removed) cost ~8,000-10,000 of the mock's ~150,000 instructions per POST
 * /search (callgrind, issue 25) for a deadline that almost never applies; it still counts from the headers, give or
 * take that turn.
 */
export function addBodyDeadline(app: FastifyInstance, ms: number): void {
  // the requests of this turn still reading their body when their headers were handled (parallel arrays: nothing
  // is allocated per request)
  const requests: FastifyRequest[] = [];
  const replies: FastifyReply[] = [];
  const check = () => {
    for (let i = 0; i < requests.length; i++) armBodyDeadline(requests[i], replies[i], ms);
    requests.length = 0;
    replies.length = 0;
  };
  app.addHook("onRequest", (req, reply, done) => {
    const raw = req.raw;
    if (raw.complete || raw.method === "GET" || raw.method === "HEAD") return done();
    if (requests.length === 0) setImmediate(check);
    requests.push(req);
    replies.push(reply);
    done();
  });
}

function armBodyDeadline(req: FastifyRequest, reply: FastifyReply, ms: number): void {
  const raw = req.raw;
  if (raw.complete || raw.destroyed || reply.sent) return;
  const timer = setTimeout(() => {
    if (raw.complete || reply.sent) return;
    reply.header("connection", "close");
    sendError(reply, serializeError("PLB_REQUEST_TIMEOUT"));
    reply.raw.once("finish", () => raw.socket?.destroy());
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  raw.once("end", clear);
  raw.once("close", clear);
}

/** Fastify's `clientErrorHandler`: the answer is written to the socket by hand, then the connection is closed. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) {
    const error = serializeError(clientErrorCode(err));
    const body = JSON.stringify(error.body);
    socket.write(
      `HTTP/1.1 ${error.status} Bad Request\r\nContent-Type: ${error.contentType}; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify's `frameworkErrors`: a URL the router cannot take apart, or a path parameter past its length cap. */
export function frameworkErrorHandler(err: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === "FST_ERR_BAD_URL")
    return sendError(
      reply,
      serializeError("PLB_BAD_PARAMETER", { message: "The URL's path is not valid percent-encoding" }),
    );
  if (err.code === "FST_ERR_MAX_PARAM_LENGTH")
    return sendError(reply, serializeError("PLB_BAD_PARAMETER", { message: "A path parameter is too long" }));
  return sendError(reply, serializeError("PLB_INTERNAL"));
}
