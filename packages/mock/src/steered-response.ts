// Error responses the mock is asked for (Prefer: code=NNN, fault rules, failing batch entries): built by the same
// serializer and challenge code as real errors, so a forced 402 or 429 looks exactly like a real one.

import {
  type Contract,
  ERROR_CATALOGUE,
  type ErrorCode,
  type OperationSpec,
  type SerializedError,
  serializeError,
} from "@plumbline-kit/contract";
import { bearerChallenge, paymentChallenge, priceCurrency } from "@plumbline-kit/platform/payment-challenge";
import { baseUrlOf } from "@plumbline-kit/platform/request-state";
import type { FastifyRequest } from "fastify";

/** The catalogue code used for a forced status: the first entry with that status. */
export function codeForStatus(status: number): ErrorCode | null {
  const found = Object.entries(ERROR_CATALOGUE).find(([, e]) => e.status === status);
  return found ? (found[0] as ErrorCode) : null;
}

export function steeredError(
  contract: Contract,
  op: OperationSpec,
  status: number,
  req: FastifyRequest,
  nowMs: number,
): { error: SerializedError; headers: Record<string, string> } | null {
  const code = codeForStatus(status);
  if (!code || !op.responses.has(status)) return null;
  const message = `Forced by the mock for ${op.operationId}: ${ERROR_CATALOGUE[code].message}`;
  const baseUrl = baseUrlOf(req);
  if (status === 402) {
    return paymentChallenge(code as "PLB_INSUFFICIENT_CREDITS", message, {
      baseUrl,
      realm: req.host,
      price: op.pricing?.price ?? "0",
      currency: priceCurrency(contract),
      recipient: "plumbline",
      nowMs,
    });
  }
  const headers: Record<string, string> = {};
  if (status === 401) headers["www-authenticate"] = bearerChallenge(baseUrl, "invalid_token");
  if (status === 429) {
    const { perAccount, windowSeconds, retryAfterSeconds } = contract.rateLimits;
    headers["retry-after"] = String(retryAfterSeconds);
    headers["ratelimit-policy"] = `"default";q=${perAccount};w=${windowSeconds}`;
    headers.ratelimit = `"default";r=0;t=${retryAfterSeconds}`;
  }
  let error = serializeError(code, { message, errors: status === 422 ? [] : undefined });
  if (op.operationId === "deepcrawlStatus" && status === 404) {
    // D-status-not-found: the status operation's 404 is a not_found status response
    const { status: _rfc, ...members } = error.body;
    const taskId = (req.params as { taskId?: string }).taskId ?? "";
    error = {
      ...error,
      body: { ...members, taskId, status: "not_found", success: false } as unknown as typeof error.body,
    };
  }
  return { error, headers };
}
