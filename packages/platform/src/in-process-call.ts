// REST calls made in-process for an MCP tool call (mcp-tool-call.ts) have no connection of their own: a fault that
// drops "the connection" (the mock's `Prefer: fault=reset`) must drop the MCP request's real one, as the client
// would see it, instead of leaving the call unanswered forever.
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import type { FastifyRequest } from "fastify";

export const IN_PROCESS_HEADER = "x-plumbline-in-process";
const outer = new Map<string, Socket>();

/** Lends the MCP request's socket to the in-process call made under the returned token, until `release`. */
export function lendConnection(socket: Socket): { token: string; release(): void } {
  const token = randomBytes(12).toString("hex");
  outer.set(token, socket);
  return { token, release: () => outer.delete(token) };
}

/** The connection a request arrived on: the lending MCP request's for an in-process call. */
export function connectionOf(req: FastifyRequest): { destroy(): void } {
  const token = req.headers[IN_PROCESS_HEADER];
  return (typeof token === "string" && outer.get(token)) || req.raw.socket;
}
