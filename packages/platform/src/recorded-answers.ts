// Recorded answers (issue 28, replay): where in the request pipeline an implementation may answer a request with
// one recorded earlier, and what such an answer costs. Written once here so every way of driving the platform (the
// mock's server, its MSW handlers, an /mcp tool call) replays alike. Only the mock plugs a source in
// (mock/replay/); the reference never does.
//
// The order is the contract's, with the recording in the engine's place: authentication and rate limits (onRequest
// hooks), then the body's validation (400/422), then the price held from the balance (402 when it cannot be), and
// only then the recorded answer instead of running an engine. The credits are the contract's price for the request
// (D-charging applied to the recorded outcome), never what the recording says it cost.

import type { Contract, OperationSpec } from "@plumbline-kit/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { chargedFailure } from "./operation-executors.ts";

export interface RecordedAnswer {
  status: number;
  /** headers to send, already stripped of framing and of what the implementation sets itself */
  headers: Array<[name: string, value: string]>;
  /** the decoded body (no Content-Encoding) */
  body: Buffer;
  /** where it was recorded, for the journal: `file#entry` */
  source: string;
}

export interface FoundAnswer {
  answer: RecordedAnswer;
  /**
   * Marks the answer as served: the next request that matches gets the next recorded answer. Idempotent. Called when
   * the answer is sure to be sent (sendRecorded does), before any await that would let a concurrent request find
   * the same one.
   */
  take(): void;
}

export interface RecordedAnswers {
  /**
   * The recorded answer to this request, or null to let the implementation answer it. Called once the request has
   * passed authentication, rate limits and validation; `body` is the parsed body (undefined without one). Nothing is
   * consumed until `take()`: a call refused for want of credits leaves the recording where it was.
   */
  find(req: FastifyRequest, operationId: string | null, body: unknown): FoundAnswer | null;
}

declare module "fastify" {
  interface FastifyRequest {
    /** `file#entry` of the recorded answer this request was given (the mock's journal shows it) */
    replayedFrom?: string | null;
  }
}

/** Sends a recorded answer as it was recorded: status, headers, body bytes. */
export function sendRecorded(req: FastifyRequest, reply: FastifyReply, found: FoundAnswer): FastifyReply {
  const { answer } = found;
  found.take();
  req.replayedFrom = answer.source;
  reply.code(answer.status);
  const repeated = new Map<string, string[]>();
  for (const [name, value] of answer.headers) {
    const key = name.toLowerCase();
    const values = repeated.get(key);
    if (values) values.push(value);
    else repeated.set(key, [value]);
  }
  for (const [name, values] of repeated) reply.header(name, values.length === 1 ? values[0] : values);
  return reply.send(answer.body);
}

function jsonOf(answer: RecordedAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The entries of a request the recorded answer charges, by D-charging: a single call is charged when it succeeded,
 * or when a crawl's target confirmed 404/410; a batch entry only when it succeeded (its `success` in `results`; a
 * crawl batch answers the array of the crawls that succeeded, every crawl entry costing the same). Indexes into the
 * request's entries (a single call is entry 0).
 */
export function chargedEntries(op: OperationSpec, body: unknown, answer: RecordedAnswer): number[] {
  const ok = answer.status >= 200 && answer.status < 300;
  if (!Array.isArray(body)) {
    if (ok) return [0];
    const code = (jsonOf(answer) as { code?: unknown } | undefined)?.code;
    return typeof code === "string" && chargedFailure(op.operationId, code) ? [0] : [];
  }
  if (!ok) return [];
  const recorded = jsonOf(answer);
  if (op.operationId === "crawl") {
    const succeeded = Array.isArray(recorded) ? Math.min(recorded.length, body.length) : 0;
    return Array.from({ length: succeeded }, (_, i) => i);
  }
  const results = (recorded as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results)) return [];
  return body.flatMap((_, i) => ((results[i] as { success?: unknown } | undefined)?.success === true ? [i] : []));
}

/** The credits the contract charges for the entries a recorded answer charges. */
export function recordedCredits(contract: Contract, op: OperationSpec, body: unknown, charged: number[]): number {
  const entries = Array.isArray(body) ? body : [body];
  return charged.reduce((sum, i) => sum + contract.prices.entryCredits(op.operationId, entries[i]), 0);
}
