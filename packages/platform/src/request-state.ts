// What the platform's hooks learn about a request, kept on it for the later hooks and the handler.

import type { OperationSpec, SerializedError } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
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

/**
 * Appends a route-level onRequest hook, made for its operationId, to every contract route registered from now on.
 * Route-level hooks run after the global ones and in the order added, so a plugin registered later runs later
 * (auth, then rate limit); bound at registration, no hook reads `req.routeOptions`, which Fastify rebuilds and
 * freezes on every access (measured on the hot path).
 */
export function addOperationHook(
  app: FastifyInstance,
  hookFor: (
    operationId: string,
  ) => onRequestHookHandler | ((req: FastifyRequest, reply: FastifyReply) => Promise<unknown>),
): void {
  app.addHook("onRoute", (route) => {
    const id = (route.config as { operationId?: string } | undefined)?.operationId;
    if (!id) return;
    route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), hookFor(id) as onRequestHookHandler];
  });
}
