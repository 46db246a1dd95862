// x-request-id and Link on every response (D-headers). An incoming x-request-id is echoed when it is sane.
import { randomBytes } from "node:crypto";
import fp from "fastify-plugin";

export const LINK_HEADER = '</openapi.json>; rel="service-desc", </docs>; rel="service-doc", </health>; rel="status"';

const SANE_ID = /^[\x21-\x7e]{1,128}$/;

/** Fastify's genReqId: the caller's id when it is printable ASCII of at most 128 characters, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && SANE_ID.test(value) ? value : `req_${randomBytes(10).toString("hex")}`;
}

export const requestHeadersPlugin = fp(
  async (app) => {
    app.addHook("onSend", async (req, reply, payload) => {
      reply.header("x-request-id", req.id);
      reply.header("link", LINK_HEADER);
      return payload;
    });
  },
  { name: "plumbline-request-headers" },
);
