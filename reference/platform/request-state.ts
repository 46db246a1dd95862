// What the platform's hooks learn about a request, kept on it for the later hooks and the handler.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { OperationSpec, SerializedError } from "../../spec/index.ts";
import type { Account } from "./stores.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** the contract operation the route serves (absent on plumbline's own routes and on 404s) */
    operation: OperationSpec | null;
    /** the authenticated account, or null for an anonymous call */
    account: Account | null;
  }
  interface FastifyContextConfig {
    operationId?: string;
  }
}

/** The base URL clients reached (or the configured public URL), for links and challenges. */
export function baseUrlOf(req: FastifyRequest, publicUrl?: string): string {
  return publicUrl?.replace(/\/$/, "") ?? `${req.protocol}://${req.host}`;
}

/** Sends an error in the contract's shape (the one way every platform error leaves). */
export function sendError(
  reply: FastifyReply,
  error: SerializedError,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply.code(error.status).headers(headers).type(error.contentType).send(error.body);
}
