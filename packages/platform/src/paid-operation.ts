// The paid-operation flow (interface-spec "General rules" 2-3, "Errors"; D-validation-status, D-charging):
// validate (400/422) → semantic checks (400) → hold the price (402) → run → settle or release.

import {
  type Contract,
  ERROR_CATALOGUE,
  type ErrorCode,
  type OperationSpec,
  serializeError,
} from "@plumbline-kit/contract";
import { addAmounts, entryPrice, requestPrice } from "@plumbline-kit/contract/payment-amount";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type BatchEntry, DEFAULT_BATCH_LIMITS, runBatch, summarize } from "./batch.ts";
import { ClientHangUp } from "./client-gone.ts";
import type { EngineContext } from "./engines.ts";
import { chargedFailure, type ExecutionContext, type Executor, type Produced } from "./operation-executors.ts";
import { payerAccount, recordPayment } from "./payment-accounting.ts";
import { paymentChallenge, priceCurrency } from "./payment-challenge.ts";
import { type AdmittedPayment, hasPaymentCredential } from "./payment-gate.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { chargedEntries, type FoundAnswer, recordedCredits, sendRecorded } from "./recorded-answers.ts";
import { trendingPlatforms } from "./request-defaults.ts";
import { baseUrlOf, sendError } from "./request-state.ts";
import { type Account, type Hold, isPending } from "./stores.ts";

type Outcome =
  | { ok: true; value: Produced; cost: number }
  | { ok: false; code: ErrorCode; message?: string; cost: number };

/**
 * A single call's answer as bytes: JSON is stringified once and encoded once. Handed an object, fastify stringifies
 * it, measures the text's UTF-8 length and encodes it again on write: under crawl load that made a tenth of what the
 * event loop allocated (a sampling heap profile), and the collection of it paused every other request (issue 12).
 */
function bodyOf(p: Produced): unknown {
  if (p.serialized) return p.serialized;
  const text = typeof p.payload === "string" || Buffer.isBuffer(p.payload) || p.payload === undefined;
  if (text || !p.contentType.startsWith("application/json")) return p.payload;
  return Buffer.from(JSON.stringify(p.payload));
}

/** Checks the schema cannot express (D-validation-status: 400 for a bad value caught outside schema validation). */
function semanticError(contract: Contract, op: OperationSpec, body: unknown): ReturnType<typeof serializeError> | null {
  if (op.operationId === "trending") {
    const platforms = trendingPlatforms(contract);
    const service = (body as { search_service: string }).search_service;
    if (!platforms.includes(service)) {
      const accepted = platforms.join(", ");
      const message = `/search_service must be one of ${accepted} (${JSON.stringify(service)} is not a trending platform)`;
      return serializeError("PLB_BAD_VALUE", { errors: [{ field: "/search_service", message, code: "enum" }] });
    }
  }
  return null;
}

/** What an entry still running when its client hung up answers (shared: nobody changes an outcome). */
const ABANDONED: Outcome = Object.freeze({
  ok: false,
  code: "PLB_UPSTREAM_FAILED",
  message: "Cancelled: the client closed the connection",
  cost: 0,
});

/**
 * The holds of one request not yet settled or released. When the client hangs up, every open hold is released at
 * once, in the close event itself (D-batch-execution): an entry still running then is neither charged nor released
 * again when it ends, so the balance a later request reads never changes because of a request its client gave up.
 * A single call has one hold, kept in a field; a Set is made only for a batch's second one.
 */
class OpenHolds {
  private one: Hold | null = null;
  private more: Set<Hold> | null = null;
  readonly abandoned: Outcome = ABANDONED;
  private readonly hangUp: ClientHangUp;
  constructor(hangUp: ClientHangUp, release: (hold: Hold) => Promise<unknown>) {
    this.hangUp = hangUp;
    hangUp.whenGone(() => {
      if (this.one) void release(this.one);
      if (this.more) for (const hold of this.more) void release(hold);
      this.one = null;
      this.more = null;
    });
  }
  /** Tracks a hold just taken; false when the client has already gone (the caller releases it now). */
  open(hold: Hold): boolean {
    if (this.hangUp.gone) return false;
    if (this.one === null) this.one = hold;
    else {
      this.more ??= new Set();
      this.more.add(hold);
    }
    return true;
  }
  /** Takes a hold back to settle or release it; false when the hang-up released it already. */
  close(hold: Hold): boolean {
    if (this.one === hold) {
      this.one = null;
      return true;
    }
    return this.more?.delete(hold) ?? false;
  }
}

/**
 * The engine context of one call. A class, not `{ ...base, signal }`: no object spread per call, and the hang-up
 * signal is made only when an engine reads it (a getter), which a memoized mock answer never does (issue 25; see
 * client-gone.ts for the measure). A copy by spread does not carry the getter: whoever copies it names the signal.
 */
class CallEngineContext implements EngineContext {
  requestId: string;
  variability: "normal" | "max" = "normal";
  seed = 0;
  readonly #hangUp: ClientHangUp;
  constructor(requestId: string, hangUp: ClientHangUp) {
    this.requestId = requestId;
    this.#hangUp = hangUp;
  }
  get signal(): AbortSignal {
    return this.#hangUp.signal;
  }
}

/** The engine context of a call: the implementation's fields (engineContext) over the defaults, and the hang-up. */
function engineContextOf(requestId: string, extra: Partial<EngineContext> | undefined, hangUp: ClientHangUp) {
  if (extra && "signal" in extra) {
    // an implementation's own signal: either ends the call (a plain object: the class's signal is a getter only)
    const base = { requestId, variability: "normal" as const, seed: 0, ...extra };
    return { ...base, signal: extra.signal ? AbortSignal.any([extra.signal, hangUp.signal]) : hangUp.signal };
  }
  const ctx = new CallEngineContext(requestId, hangUp);
  return extra ? Object.assign(ctx, extra) : ctx;
}

export function createPaidHandler(
  o: PlatformOptions,
  executors: Record<string, Executor>,
  onBug: (err: unknown, requestId: string) => void = (err, requestId) =>
    console.error(`${requestId}: engine error`, err),
) {
  const { contract, accounts } = o;
  const currency = priceCurrency(contract);

  /** A hold given back when its client hangs up: nobody waits for it, so a failure is only reported. */
  const releaseQuietly = (hold: Hold) => accounts.release(hold).catch((err: unknown) => onBug(err, hold.requestId));

  /** The 402 of an entry (or call) the balance cannot cover. */
  async function insufficient(ctx: ExecutionContext, credits: number): Promise<Outcome> {
    const balance = await accounts.balance(ctx.account.id);
    return {
      ok: false,
      code: "PLB_INSUFFICIENT_CREDITS",
      message: `This call costs ${credits} credits; the balance is ${balance}`,
      cost: 0,
    };
  }

  /**
   * Holds the entry's price and returns its run, which settles (charged) or releases (free) the hold; null when the
   * balance cannot cover it. A batch entry that fails costs 0 whatever the failure (D-charging), so only single
   * calls charge a confirmed 404/410. A call paid with a Payment credential holds nobody's credits
   * (D-payment-charging): its cost only says what the payment captures.
   */
  async function admit(
    op: OperationSpec,
    entry: unknown,
    ctx: ExecutionContext,
    requestId: string,
    inBatch: boolean,
    paid: boolean,
    holds: OpenHolds,
  ): Promise<(() => Promise<Outcome>) | null> {
    const exec = executors[op.operationId];
    const credits = contract.prices.entryCredits(op.operationId, entry);
    if (paid) return () => runPaid(exec, entry, ctx, requestId, inBatch, op, credits);
    const hold = await accounts.hold(ctx.account.id, credits, { operationId: op.operationId, requestId });
    if (!hold) return null;
    if (!holds.open(hold)) {
      await accounts.release(hold);
      return async () => holds.abandoned;
    }
    return () => runHeld(exec, entry, ctx, requestId, inBatch, op, credits, hold, holds);
  }

  /**
   * A single call: admit() and its run in one, without the closure a batch needs between them: with the batch's
   * code moved out of the handler, ~1 KB less allocated per mock POST /search (sampling heap profile, issue 25).
   */
  async function single(
    op: OperationSpec,
    body: unknown,
    ctx: ExecutionContext,
    requestId: string,
    paid: boolean,
    holds: OpenHolds,
  ): Promise<Outcome> {
    const exec = executors[op.operationId];
    const credits = contract.prices.entryCredits(op.operationId, body);
    if (paid) return await runPaid(exec, body, ctx, requestId, false, op, credits);
    // an in-memory store answers at once: no microtask turn (stores.ts)
    const held = accounts.hold(ctx.account.id, credits, { operationId: op.operationId, requestId });
    const hold = isPending(held) ? await held : held;
    if (!hold) return await insufficient(ctx, credits);
    if (!holds.open(hold)) {
      await accounts.release(hold);
      return holds.abandoned;
    }
    return await runHeld(exec, body, ctx, requestId, false, op, credits, hold, holds);
  }

  /** Runs an entry whose price is held, then settles (charged) or releases (free) the hold. */
  async function runHeld(
    exec: Executor,
    entry: unknown,
    ctx: ExecutionContext,
    requestId: string,
    inBatch: boolean,
    op: OperationSpec,
    credits: number,
    hold: Hold,
    holds: OpenHolds,
  ): Promise<Outcome> {
    let r: Awaited<ReturnType<Executor>>;
    try {
      r = await exec(entry, ctx);
    } catch (err) {
      // an engine bug is this call's (or this batch entry's) 500, uncharged; it must not abort a batch whose
      // earlier entries were already charged (D-charging: failed calls cost nothing)
      if (holds.close(hold)) await accounts.release(hold);
      onBug(err, requestId);
      return { ok: false, code: "PLB_INTERNAL", cost: 0 };
    }
    // released already: the client hung up while this ran, and nothing it asked for is charged after that
    if (!holds.close(hold)) return holds.abandoned;
    if (r.ok || (!inBatch && chargedFailure(op.operationId, r.code))) {
      const settled = accounts.settle(hold);
      if (isPending(settled)) await settled;
      return r.ok
        ? { ok: true, value: r.value, cost: credits }
        : { ok: false, code: r.code, message: r.message, cost: credits };
    }
    await accounts.release(hold);
    return { ok: false, code: r.code, message: r.message, cost: 0 };
  }

  async function runPaid(
    exec: Executor,
    entry: unknown,
    ctx: ExecutionContext,
    requestId: string,
    inBatch: boolean,
    op: OperationSpec,
    credits: number,
  ): Promise<Outcome> {
    let r: Awaited<ReturnType<Executor>>;
    try {
      r = await exec(entry, ctx);
    } catch (err) {
      onBug(err, requestId);
      return { ok: false, code: "PLB_INTERNAL", cost: 0 };
    }
    if (r.ok) return { ok: true, value: r.value, cost: credits };
    const charged = !inBatch && chargedFailure(op.operationId, r.code);
    return { ok: false, code: r.code, message: r.message, cost: charged ? credits : 0 };
  }

  /** Records what the call kept of its payment and hands the client its receipt when it kept something. */
  async function settlePayment(
    reply: FastifyReply,
    req: FastifyRequest,
    op: OperationSpec,
    payment: AdmittedPayment | null,
    capturedAmount: string,
  ) {
    if (!payment || !o.payments) return;
    const record = await recordPayment(o.payments.store, payment, {
      operationId: op.operationId,
      requestId: req.id,
      capturedAmount,
      nowMs: o.clock.now(),
    });
    req.payment = record;
    if (record.status !== "voided")
      reply.header("payment-receipt", payment.receiptHeader).header("cache-control", "private");
  }

  async function failure(
    reply: FastifyReply,
    req: FastifyRequest,
    op: OperationSpec,
    out: Extract<Outcome, { ok: false }>,
  ) {
    if ((out.code === "PLB_INSUFFICIENT_CREDITS" || out.code === "PLB_PAYMENT_REQUIRED") && o.payments) {
      // a key holder out of credits can still pay for this call with the Payment scheme
      const amount = requestPrice(contract.prices, op.operationId, req.body);
      const { error, headers } = await o.payments.challenge(req, op, amount, out.code, out.message);
      return sendError(reply, error, headers);
    }
    if (out.code === "PLB_INSUFFICIENT_CREDITS" || out.code === "PLB_PAYMENT_REQUIRED") {
      const { error, headers } = paymentChallenge(out.code, out.message, {
        baseUrl: baseUrlOf(req, o.publicUrl),
        realm: req.host,
        price: op.pricing?.price ?? "0",
        currency,
        recipient: o.paymentRecipient ?? "plumbline",
        nowMs: o.clock.now(),
      });
      return sendError(reply, error, headers);
    }
    return sendError(reply, serializeError(out.code, { message: out.message }));
  }

  return async function paidHandler(req: FastifyRequest, reply: FastifyReply) {
    const op = req.operation as OperationSpec;
    const body = req.body;
    const amount = req.account ? "0" : requestPrice(contract.prices, op.operationId, body);
    if (!req.account && o.payments && !hasPaymentCredential(req.headers.authorization)) {
      // D-payment-challenge: priced from the body (batches per entry), so it comes once the body is parsed
      const { error, headers } = await o.payments.challenge(req, op, amount);
      return sendError(reply, error, headers);
    }
    const check = contract.validators.checkBody(op.operationId, body);
    if (!check.ok) {
      if (check.kind === "shape") return sendError(reply, serializeError("PLB_BODY_SHAPE"));
      // the message names the first violation and counts the rest (D-validation-message)
      return sendError(reply, serializeError("PLB_VALIDATION_FAILED", { errors: check.errors }));
    }
    for (const entry of check.batch ? (body as unknown[]) : [body]) {
      const bad = semanticError(contract, op, entry);
      if (bad) return sendError(reply, bad);
    }
    let payment: AdmittedPayment | null = null;
    if (!req.account && o.payments) {
      // verified (and spent) only now: a credential for another amount is refused before any work is done
      const admitted = await o.payments.admit(req, op, amount, o.paymentFault?.(req));
      if (!admitted.ok) return sendError(reply, admitted.refusal.error, admitted.refusal.headers);
      payment = admitted.payment;
    }
    const account = (payment ? payerAccount(payment) : req.account) as Account;
    const paid = payment !== null;
    if (o.recorded) {
      // the mock's replay: a recorded answer in the engine's place, charged as the contract prices it
      const found = o.recorded.find(req, op.operationId, body);
      if (found && (await replayed(req, reply, op, body, found, account, payment))) return reply;
    }
    // the client hanging up cancels the work it asked for (issue 12): fetches, parses, the rest of a batch
    const hangUp = new ClientHangUp(reply);
    // D-batch-execution: a hang-up releases every hold at once, so no reader sees the balance change afterwards
    const holds = new OpenHolds(hangUp, releaseQuietly);
    const engine: EngineContext = engineContextOf(req.id, o.engineContext?.(req), hangUp);
    const ctx: ExecutionContext = { engine, account };

    if (!check.batch) {
      const out = await single(op, body, ctx, req.id, paid, holds);
      // no promise to wait for when nothing was paid with the Payment scheme (a key's call)
      if (payment) await settlePayment(reply, req, op, payment, out.cost > 0 ? amount : "0");
      if (!out.ok) return failure(reply, req, op, out);
      return reply.code(out.value.status).type(out.value.contentType).send(bodyOf(out.value));
    }
    // a function of its own: its closures kept in the handler made every call's frame and context bigger
    return batch(req, reply, op, body as unknown[], payment, paid, hangUp, holds, engine, ctx);
  };

  /**
   * Serves a recorded answer once its price is charged: held and settled from the balance (or captured from the
   * Payment credential) for the entries the recorded outcome charges (recorded-answers.ts). False when the balance
   * cannot cover them: the call then runs as any other, and meets its 402 (or a batch its 402 entries). A boolean,
   * not the reply: a reply is a thenable, and an async function returning it would wait for the response to end.
   */
  async function replayed(
    req: FastifyRequest,
    reply: FastifyReply,
    op: OperationSpec,
    body: unknown,
    found: FoundAnswer,
    account: Account,
    payment: AdmittedPayment | null,
  ): Promise<boolean> {
    const charged = chargedEntries(op, body, found.answer);
    if (payment) {
      found.take(); // before the await: a concurrent identical call gets the next recorded answer
      const entries = Array.isArray(body) ? body : [body];
      const captured = addAmounts(charged.map((i) => entryPrice(contract.prices, op.operationId, entries[i])));
      await settlePayment(reply, req, op, payment, charged.length ? captured : "0");
      sendRecorded(req, reply, found);
      return true;
    }
    const credits = recordedCredits(contract, op, body, charged);
    if (credits > 0) {
      // the mock's memory store holds and settles at once, so nothing runs between find() and take()
      const held = accounts.hold(account.id, credits, { operationId: op.operationId, requestId: req.id });
      const hold = isPending(held) ? await held : held;
      if (!hold) return false;
      const settled = accounts.settle(hold);
      if (isPending(settled)) await settled;
    }
    sendRecorded(req, reply, found);
    return true;
  }

  async function batch(
    req: FastifyRequest,
    reply: FastifyReply,
    op: OperationSpec,
    entries: unknown[],
    payment: AdmittedPayment | null,
    paid: boolean,
    hangUp: ClientHangUp,
    holds: OpenHolds,
    engine: EngineContext,
    ctx: ExecutionContext,
  ) {
    type Result = BatchEntry<unknown> & { code?: ErrorCode };
    const asEntry = (out: Outcome): Result => {
      if (out.ok) return { success: true, data: out.value.payload, cost: out.cost };
      const status = ERROR_CATALOGUE[out.code].status;
      return {
        success: false,
        error: { message: out.message ?? ERROR_CATALOGUE[out.code].message, statusCode: status },
        cost: 0,
        code: out.code,
      };
    };
    const limits = { ...DEFAULT_BATCH_LIMITS, ...o.batchLimits };
    // D-batch-execution: the whole batch answers within its deadline; entries still running then are cancelled
    const batchSignal = AbortSignal.any([engine.signal as AbortSignal, AbortSignal.timeout(limits.deadlineMs)]);
    const entryCtx = (index: number): ExecutionContext => ({
      ...ctx,
      engine: { ...engine, requestId: `${req.id}.${index}`, signal: batchSignal },
    });
    const results = await runBatch<Result>(
      entries.length,
      {
        admit: async (index) => {
          const fault = o.batchEntryFault?.(op.operationId, index, req);
          if (fault) return async () => asEntry({ ok: false, code: fault, cost: 0 });
          const run = await admit(op, entries[index], entryCtx(index), req.id, true, paid, holds);
          return run && (async () => asEntry(await run()));
        },
        refused: async (index) =>
          asEntry(await insufficient(ctx, contract.prices.entryCredits(op.operationId, entries[index]))),
        cancelled: () =>
          asEntry({
            ok: false,
            code: "PLB_UPSTREAM_FAILED",
            message: hangUp.gone
              ? "Cancelled: the client closed the connection"
              : `Not run: the batch did not finish within its deadline of ${limits.deadlineMs} ms (D-batch-execution)`,
            cost: 0,
          }),
      },
      limits.concurrency,
      batchSignal,
    );

    if (payment)
      await settlePayment(
        reply,
        req,
        op,
        payment,
        addAmounts(
          results.flatMap((r, i) => (r.success ? [entryPrice(contract.prices, op.operationId, entries[i])] : [])),
        ),
      );
    if (op.operationId === "crawl") {
      // D-crawl-batch: an array of the crawl responses that succeeded; when none did, the first failure answers
      const ok = results.filter((r) => r.success).map((r) => (r as { data: unknown }).data);
      if (ok.length === 0) {
        const first = results[0] as { error: { message: string }; code?: ErrorCode };
        return failure(reply, req, op, {
          ok: false,
          code: first.code ?? "PLB_UPSTREAM_FAILED",
          message: first.error.message,
          cost: 0,
        });
      }
      return reply.code(200).type("application/json").send(ok);
    }
    const clean = results.map(({ code: _code, ...entry }) => entry as BatchEntry<unknown>);
    return reply
      .code(200)
      .type("application/json")
      .send({ results: clean, summary: summarize(clean) });
  }
}
