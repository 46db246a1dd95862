// Bad input always gets the contract's error shape, never a crash or a 500 (D-validation-status): parser errors
// become 400s, unknown routes 404, anything unexpected 500 PLB_INTERNAL, logged with its request id.

import { type ErrorCode, serializeError } from "@plumbline-kit/contract";
import fp from "fastify-plugin";
import { sendError } from "./request-state.ts";

interface FastifyishError extends Error {
  code?: string;
  statusCode?: number;
}

/** Maps what Fastify's body parsing throws to the catalogue. */
export function parserErrorCode(err: FastifyishError): ErrorCode | null {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return "PLB_UNSUPPORTED_MEDIA_TYPE";
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "PLB_BODY_SHAPE";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "PLB_BODY_TOO_LARGE";
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return "PLB_MALFORMED_JSON";
  }
  // the client stopped sending mid-body (Node's "aborted"); the answer rarely reaches it, but it is still in shape
  if (err.code === "ECONNRESET" || err.message === "aborted") return "PLB_BODY_INCOMPLETE";
  if (err instanceof SyntaxError || /JSON|prototype/i.test(err.message)) return "PLB_MALFORMED_JSON";
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) return "PLB_BAD_VALUE";
  return null;
}

export const errorHandlingPlugin = fp(
  async (app) => {
    // Only JSON bodies are accepted (interface-spec "General rules" 1); text/plain would otherwise parse as a string.
    app.removeContentTypeParser("text/plain");

    app.setErrorHandler(async (err: FastifyishError, req, reply) => {
      const code = parserErrorCode(err);
      if (code) {
        const message = code === "PLB_MALFORMED_JSON" || code === "PLB_BAD_VALUE" ? err.message : undefined;
        return sendError(reply, serializeError(code, { message }));
      }
      req.log.error({ err }, "unexpected error");
      return sendError(reply, serializeError("PLB_INTERNAL"));
    });

    app.setNotFoundHandler(async (req, reply) =>
      sendError(
        reply,
        serializeError("PLB_ROUTE_NOT_FOUND", { message: `No route ${req.method} ${req.url.split("?")[0]}` }),
      ),
    );
  },
  { name: "plumbline-error-handling" },
);
