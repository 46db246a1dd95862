// The pino options of the mock's and the reference's `--log` (and the authorization server's): Fastify's own request
// serializer, with the URL's secret query parameters redacted (spec/secrets.ts). The service takes keys in the
// Authorization header only, which is never logged; a key, token or OAuth code sent in the query string is written
// as `[REDACTED]` (issue 38).

import { redactUrl } from "@plumbline-kit/contract/secrets";
import type { FastifyRequest } from "fastify";

type LoggerOption = boolean | Record<string, unknown> | undefined;

/** What a log line says of a request: Fastify's default fields, the URL redacted. */
export function loggedRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.["accept-version"],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Fastify's `logger` option: false stays false; true or pino options get the redacting request serializer. */
export function loggerOptions(logger: LoggerOption): false | Record<string, unknown> {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  const serializers = (base.serializers as Record<string, unknown> | undefined) ?? {};
  return { ...base, serializers: { req: loggedRequest, ...serializers } };
}
