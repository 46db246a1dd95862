// The Payment HTTP authentication scheme on paid operations (interface-spec "What the service does" 2-3;
// D-payment-challenge, D-payment-methods), through the protocol's SDK (mppx): challenges bound to this server
// by its HMAC secret (realm, method, intent, request {amount, currency, recipient}, expiry, and the operation as
// the challenge's scope), credentials in `Authorization: Payment …` checked against this call's price, single
// use, and a `Payment-Receipt` on the paid answer. Every refusal is a 402 RFC 9457 problem in the contract's
// error shape with a fresh challenge, so a client can pay again.

import { type ErrorCode, type OperationSpec, type SerializedError, serializeError } from "@plumbline-kit/contract";
import { Challenge, Credential, Errors, Mppx, Receipt, Transport } from "@plumbline-kit/contract/vendor/mppx";
import type { FastifyRequest } from "fastify";
import { bearerChallenge } from "./payment-challenge.ts";
import {
  type ConfiguredMethod,
  configureMethod,
  type PaymentMethodConfig,
  ReplayedCredentialError,
} from "./payment-methods.ts";
import type { PaymentStore } from "./payment-store.ts";
import { baseUrlOf } from "./request-state.ts";

export interface PaymentGateOptions {
  methods: PaymentMethodConfig[];
  store: PaymentStore;
  /** the HMAC secret binding challenges to this server (at least 32 bytes; the same on every instance) */
  secretKey: string;
  currency: string;
  recipient: string;
  /** the challenges' realm; default: the host name clients reached */
  realm?: string;
  /** how long a challenge can be paid (default 300 s); wall-clock time, as the SDK's client and server check it */
  challengeTtlSeconds?: number;
  publicUrl?: string;
}

/** Steering of the mock (mock/steering-plugin.ts): refuse a presented credential as this would. */
export type PaymentFault = "refused" | "expired" | "replayed";

export interface Refusal {
  error: SerializedError;
  headers: Record<string, string>;
}

export interface AdmittedPayment {
  method: string;
  amount: string;
  currency: string;
  challengeId: string;
  receiptId: string;
  /** the `Payment-Receipt` header value */
  receiptHeader: string;
  settlesOnVerify: boolean;
}

export interface PaymentGate {
  readonly methods: string[];
  /** A 402 with fresh challenges for `amount` (no credential, or a key holder whose credits ran out). */
  challenge(
    req: FastifyRequest,
    op: OperationSpec,
    amount: string,
    code?: "PLB_PAYMENT_REQUIRED" | "PLB_INSUFFICIENT_CREDITS",
    message?: string,
  ): Promise<Refusal>;
  /** Verifies the request's Payment credential for `amount` (and spends it), or refuses it. */
  admit(
    req: FastifyRequest,
    op: OperationSpec,
    amount: string,
    fault?: PaymentFault | null,
  ): Promise<{ ok: true; payment: AdmittedPayment } | { ok: false; refusal: Refusal }>;
  store: PaymentStore;
}

/** Whether an Authorization header carries the Payment scheme. */
export function hasPaymentCredential(header: string | undefined): boolean {
  return header !== undefined && /^Payment\s/i.test(header);
}

interface CallContext {
  code?: ErrorCode;
  message?: string;
  fault?: Errors.PaymentError;
}

const FAULTS: Record<PaymentFault, () => Errors.PaymentError> = {
  refused: () => new Errors.VerificationFailedError({ reason: "refused by the mock (Prefer: payment=refused)" }),
  expired: () => new Errors.PaymentExpiredError({ expires: new Date(0).toISOString() }),
  replayed: () => new ReplayedCredentialError("(steered)"),
};

export async function createPaymentGate(o: PaymentGateOptions): Promise<PaymentGate> {
  if (o.methods.length === 0) throw new Error("pay-per-request needs at least one payment method");
  if (Buffer.byteLength(o.secretKey) < 32) throw new Error("the payment secret must be at least 32 bytes");
  const configured: ConfiguredMethod[] = await Promise.all(o.methods.map((m) => configureMethod(m, o.store)));
  const contexts = new WeakMap<Request, CallContext>();
  const ttlMs = (o.challengeTtlSeconds ?? 300) * 1000;

  function classify(
    error: Errors.PaymentError | undefined,
    input: Request,
    challenge: Challenge.Challenge,
  ): { code: ErrorCode; message?: string } {
    if (!error || error instanceof Errors.PaymentRequiredError) return { code: "PLB_PAYMENT_REQUIRED" };
    if (error instanceof ReplayedCredentialError) return { code: "PLB_PAYMENT_REPLAYED" };
    if (error instanceof Errors.PaymentExpiredError) return { code: "PLB_PAYMENT_EXPIRED" };
    if (error instanceof Errors.InternalPaymentError) return { code: "PLB_INTERNAL" };
    // a genuine credential (our HMAC) for another amount: a single call's credential on a batch, say
    try {
      const submitted = Credential.fromRequest(input).challenge;
      const paid = String(submitted.request.amount);
      const price = String(challenge.request.amount);
      if (Challenge.verify(submitted, { secretKey: o.secretKey }) && paid !== price) {
        return {
          code: "PLB_PAYMENT_AMOUNT",
          message: `This call costs ${price} ${o.currency}; the credential pays ${paid}`,
        };
      }
    } catch {
      // malformed: refused as invalid below
    }
    return { code: "PLB_PAYMENT_INVALID" };
  }

  const base = Transport.http();
  const transport = Transport.from({
    ...base,
    respondChallenge({ challenge, error: sdkError, input }) {
      const ctx = contexts.get(input) ?? {};
      const error = ctx.fault ?? sdkError;
      const classified = ctx.code ? { code: ctx.code } : classify(error, input, challenge);
      const code = classified.code;
      const sdkProblem = error && !(error instanceof Errors.PaymentRequiredError) ? error.toProblemDetails() : null;
      const serialized = serializeError(code, {
        message: ctx.message ?? classified.message ?? sdkProblem?.detail,
        extra: { challengeId: challenge.id },
      });
      const body =
        sdkProblem && code !== "PLB_INTERNAL"
          ? { ...serialized.body, type: sdkProblem.type, title: sdkProblem.title }
          : serialized.body;
      return new Response(JSON.stringify(body), {
        status: serialized.status,
        headers: {
          "www-authenticate": Challenge.serialize(challenge),
          "cache-control": "no-store",
          "content-type": serialized.contentType,
        },
      });
    },
  });
  const mppx = Mppx.create({
    methods: configured.map((m) => m.server),
    secretKey: o.secretKey,
    realm: o.realm,
    transport,
  });
  type Handler = (
    input: Request,
  ) => Promise<{ status: 402; challenge: Response } | { status: 200; withReceipt: (r: Response) => Response }>;
  const handlers = mppx as unknown as Record<string, (options: object) => Handler> & {
    compose: (...entries: Array<readonly [string, object]>) => Handler;
  };

  function handlerFor(op: OperationSpec, amount: string): Handler {
    const common = {
      // the credential is good for this operation only (carried in the challenge's opaque, under its HMAC)
      scope: `${op.method.toUpperCase()} ${op.path}`,
      expires: new Date(Date.now() + ttlMs).toISOString(),
      description: `${op.method.toUpperCase()} ${op.path}`,
    };
    const entries = configured.map(
      (m) => [`${m.name}/charge`, { ...m.requestFor(amount, o.currency, o.recipient), ...common }] as const,
    );
    return entries.length === 1 ? handlers[entries[0][0]](entries[0][1]) : handlers.compose(...entries);
  }

  function toFetchRequest(req: FastifyRequest, withCredential: boolean): Request {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || k.startsWith(":") || (!withCredential && k === "authorization")) continue;
      headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    }
    return new Request(`${baseUrlOf(req, o.publicUrl)}${req.url}`, { method: req.method, headers });
  }

  async function toRefusal(req: FastifyRequest, response: Response): Promise<Refusal> {
    const body = (await response.json()) as SerializedError["body"];
    return {
      error: {
        status: response.status,
        contentType: response.status === 402 ? "application/problem+json" : "application/json",
        body,
      },
      headers: {
        // the Bearer challenge lets OAuth clients find the authorization server (D-auth)
        "www-authenticate": `${response.headers.get("www-authenticate")}, ${bearerChallenge(baseUrlOf(req, o.publicUrl))}`,
        "cache-control": "no-store",
      },
    };
  }

  async function challengeWith(req: FastifyRequest, op: OperationSpec, amount: string, ctx: CallContext) {
    const input = toFetchRequest(req, false);
    contexts.set(input, ctx);
    const result = await handlerFor(op, amount)(input);
    if (result.status !== 402) throw new Error("a request without a credential was admitted");
    return toRefusal(req, result.challenge);
  }

  return {
    methods: configured.map((m) => m.name),
    store: o.store,
    challenge(req, op, amount, code = "PLB_PAYMENT_REQUIRED", message) {
      return challengeWith(req, op, amount, { code, message });
    },
    async admit(req, op, amount, fault) {
      if (fault) return { ok: false, refusal: await challengeWith(req, op, amount, { fault: FAULTS[fault]() }) };
      const input = toFetchRequest(req, true);
      contexts.set(input, {});
      const result = await handlerFor(op, amount)(input);
      if (result.status === 402) return { ok: false, refusal: await toRefusal(req, result.challenge) };
      const receiptHeader = result.withReceipt(new Response(null)).headers.get("payment-receipt") ?? "";
      const receipt = Receipt.deserialize(receiptHeader);
      const credential = Credential.fromRequest(input);
      const method = configured.find((m) => m.name === credential.challenge.method);
      return {
        ok: true,
        payment: {
          method: credential.challenge.method,
          amount,
          currency: o.currency,
          challengeId: credential.challenge.id,
          receiptId: receipt.reference,
          receiptHeader,
          settlesOnVerify: method?.settlesOnVerify ?? true,
        },
      };
    },
  };
}
