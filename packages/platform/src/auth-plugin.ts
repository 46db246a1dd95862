// Authentication challenges (interface-spec "Authentication" 1-4; D-auth, D-status-auth, D-payment-challenge).
// Runs in onRequest, before the body is parsed: an anonymous call to a paid operation gets the 402 challenge
// whatever its body, as the live service answers.

import { type OperationSpec, serializeError } from "@plumbline-kit/contract";
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import fp from "fastify-plugin";
import { bearerChallenge, paymentChallenge, priceCurrency } from "./payment-challenge.ts";
import { hasPaymentCredential } from "./payment-gate.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { addOperationHook, baseUrlOf, sendError } from "./request-state.ts";
import { type Account, isPending } from "./stores.ts";

/** The credential of an `Authorization: Bearer <credential>` header; "" when the header is there but malformed. */
export function bearerCredential(header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
  return m ? m[1] : "";
}

export const authPlugin = fp<
  Pick<PlatformOptions, "contract" | "accounts" | "clock" | "publicUrl" | "paymentRecipient" | "payments">
>(
  async (app, o) => {
    app.decorateRequest("operation", null);
    app.decorateRequest("account", null);
    app.decorateRequest("payment", null);
    const currency = priceCurrency(o.contract);

    // bound to each contract route's operation when it is registered (addOperationHook); it runs after the global
    // hooks (request headers, the mock's steering), as before
    // a route whose operation this document lacks (the mock serving another version of the contract) answers as
    // a route the contract does not define
    addOperationHook(app, (id) => {
      const op = o.contract.findOperation(id);
      return op ? authenticateFor(op) : notInDocument;
    });

    const notInDocument: onRequestHookHandler = (_req, reply) => {
      sendError(reply, serializeError("PLB_ROUTE_NOT_FOUND"));
    };

    /** A callback hook: the common paths (public routes, a known key) allocate no promise of their own. */
    function authenticateFor(op: OperationSpec): onRequestHookHandler {
      return (req, reply, done) => {
        req.operation = op;
        if (op.auth === "none") return done();
        // pay-per-request: the paid handler challenges or verifies once the body, and so the price, is known
        const auth = req.headers.authorization;
        if (op.pricing && o.payments && (auth === undefined || hasPaymentCredential(auth))) return done();
        const credential = bearerCredential(req.headers.authorization);
        if (credential === null) {
          if (op.auth === "optional") return done();
          const baseUrl = baseUrlOf(req, o.publicUrl);
          if (op.pricing) {
            const { error, headers } = paymentChallenge("PLB_PAYMENT_REQUIRED", undefined, {
              baseUrl,
              realm: req.host,
              price: op.pricing.price,
              currency,
              recipient: o.paymentRecipient ?? "plumbline",
              nowMs: o.clock.now(),
            });
            sendError(reply, error, headers);
            return;
          }
          sendError(reply, serializeError("PLB_MISSING_CREDENTIAL"), { "www-authenticate": bearerChallenge(baseUrl) });
          return;
        }
        const lookup = credential ? o.accounts.authenticate(credential) : null;
        // an in-memory store answers at once: no microtask turn (stores.ts). No named closure per request either:
        // under tsx (esbuild's keepNames) naming one costs an Object.defineProperty (~3,500 instructions)
        if (isPending(lookup)) lookup.then((account) => found(account, req, reply, done), done);
        else found(lookup, req, reply, done);
      };

      function found(account: Account | null, req: FastifyRequest, reply: FastifyReply, done: () => void): void {
        if (account) {
          req.account = account;
          done();
          return;
        }
        // a credential that is sent is checked, even where none is needed (D-status-auth)
        sendError(reply, serializeError("PLB_INVALID_TOKEN"), {
          "www-authenticate": bearerChallenge(baseUrlOf(req, o.publicUrl), "invalid_token"),
        });
      }
    }
  },
  { name: "plumbline-auth", dependencies: ["plumbline-error-handling"] },
);
