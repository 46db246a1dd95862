// x-request-id and Link on every response (D-headers). An incoming x-request-id is echoed when it is sane.
import { randomBytes } from "node:crypto";
import fp from "fastify-plugin";

export const LINK_HEADER = '</openapi.json>; rel="service-desc", </docs>; rel="service-doc", </health>; rel="status"';

const SANE_ID = /^[\x21-\x7e]{1,128}$/;

// A random per-process prefix and a counter: unique across restarts and instances without a random draw per
// request (randomBytes on every request cost more than the rest of the header work, measured under load).
const PREFIX = randomBytes(6).toString("hex");
let counter = 0;

/** Fastify's genReqId: the caller's id when it is printable ASCII of at most 128 characters, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value && SANE_ID.test(value)) return value;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PREFIX}${counter.toString(36).padStart(6, "0")}`;
}

export const requestHeadersPlugin = fp(
  async (app) => {
    // Set when the request arrives rather than in onSend: every answer (404, parser errors, auth challenges,
    // steered faults) passes through onRequest first, Fastify's error path keeps the headers already set, and
    // the platform then needs no onSend hook at all (one hook runner less per response, measured under load).
    app.addHook("onRequest", (req, reply, done) => {
      reply.header("x-request-id", req.id);
      reply.header("link", LINK_HEADER);
      done();
    });
  },
  { name: "plumbline-request-headers" },
);
