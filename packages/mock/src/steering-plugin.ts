// Steering from tests, per request (Prefer) and per rule (admin faults): latency, dropped connections and forced
// statuses. Registered before the platform's auth hook, so a forced status needs no credential, as in Prism.

import { type Contract, serializeError } from "@plumbline-kit/contract";
import { connectionOf } from "@plumbline-kit/platform/in-process-call";
import type { PaymentGate } from "@plumbline-kit/platform/payment-gate";
import { sendError } from "@plumbline-kit/platform/request-state";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRng } from "./engines/rng.ts";
import type { MockState } from "./mock-state.ts";
import { MAX_LATENCY_MS, type Preferences, parsePrefer } from "./prefer.ts";
import { steeredError } from "./steered-response.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** the parsed Prefer header (null until first read) */
    preferences: Preferences | null;
  }
}

/** What a request without a Prefer header prefers: nothing. Shared and frozen, so no request pays for its own. */
export const NO_PREFERENCES: Readonly<Preferences> = Object.freeze({});

/** The Prefer header of a request, parsed once (and not at all when there is none: the common case under load). */
export function preferencesOf(req: FastifyRequest): Preferences {
  if (req.preferences) return req.preferences;
  const header = req.headers.prefer;
  req.preferences = header === undefined ? NO_PREFERENCES : parsePrefer(header);
  return req.preferences;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function installSteering(
  app: FastifyInstance,
  contract: Contract,
  state: MockState,
  seed: number,
  payments?: PaymentGate,
) {
  let counter = 0;
  app.decorateRequest("preferences", null);
  app.addHook("onRequest", (req, reply, done) => {
    // the common case (no Prefer header, no fault rule) stays synchronous: no promise per request
    if (req.headers.prefer === undefined && state.faults.size() === 0) return done();
    steer(req, reply).then(() => {
      if (!reply.sent) done();
    }, done);
  });

  async function steer(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const operationId = req.routeOptions.config.operationId;
    if (!operationId) return;
    const op = contract.operation(operationId);
    req.operation = op; // for the journal, when the answer is steered before the auth hook names it
    const prefs = preferencesOf(req);
    const fired = state.faults.fire(operationId, () => createRng(seed, "fault", counter++));
    const latency = Math.min(
      MAX_LATENCY_MS,
      (prefs.latencyMs ?? 0) + fired.reduce((s, r) => s + (r.latencyMs ?? 0), 0),
    );
    if (latency > 0) await sleep(latency);
    const fault = prefs.fault ?? fired.find((r) => r.fault)?.fault;
    if (fault) {
      if (fault === "hang") await sleep(MAX_LATENCY_MS);
      // a dropped connection: the client sees a reset, not a response. Destroying the response destroys its socket
      // on a real server, and makes an in-process inject (the MSW handlers, mock/msw/) fail the same way
      reply.hijack();
      // the connection an in-process call lends (a tool call of /mcp), else this request's own; destroying the
      // response destroys its socket on a real server and fails an in-process inject (the MSW handlers) alike
      const lent = connectionOf(req);
      if (lent === req.raw.socket) reply.raw.destroy();
      else lent.destroy();
      return;
    }
    const status = prefs.code ?? fired.find((r) => r.status)?.status;
    if (status === undefined) return;
    if (status < 300 && op.statuses.includes(status)) return; // the normal answer
    if (status === 402 && payments && op.statuses.includes(402)) {
      // a forced 402 is the payable challenge a real one is (D-payment-challenge), priced for one call of the
      // operation: the body is not read yet when a request is steered
      const message = `Forced by the mock for ${op.operationId}: payment is required`;
      const { error, headers } = await payments.challenge(
        req,
        op,
        op.pricing?.price ?? "0",
        "PLB_PAYMENT_REQUIRED",
        message,
      );
      sendError(reply, error, headers);
      return;
    }
    const steered = steeredError(contract, op, status, req, state.clock.now());
    if (steered) {
      sendError(reply, steered.error, steered.headers);
      return;
    }
    sendError(
      reply,
      serializeError("PLB_BAD_VALUE", {
        message: `Prefer code=${status}: ${op.method.toUpperCase()} ${op.path} lists ${op.statuses.join(", ")}`,
      }),
    );
  }

  app.addHook("onResponse", (req, reply, done) => {
    if (req.url.startsWith("/__mock")) return done();
    const payment = req.payment;
    // no spread of an optional part: that cost ~1,200 instructions per request (callgrind, issue 25)
    state.journal.record({
      atMs: state.clock.now(),
      method: req.method,
      url: req.url,
      operationId: req.operation?.operationId ?? null, // set by the auth hook, not req.routeOptions (hot path)
      status: reply.statusCode,
      requestId: req.id,
      accountId: req.account?.id ?? null,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      payment: payment
        ? {
            method: payment.method,
            amount: payment.amount,
            currency: payment.currency,
            receiptId: payment.receiptId,
            status: payment.status,
          }
        : undefined,
      replayedFrom: req.replayedFrom ?? undefined,
    });
    done();
  });
}
