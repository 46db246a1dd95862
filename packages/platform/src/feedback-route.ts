// POST /feedback of the live contract (D-feedback): free, for an account's key only; the body is refused before
// it is parsed when it is over 16 KiB (413) or not JSON (415), validated (422), kept in the implementation's
// feedback store, and only then answered 201 with the report's id. The rate limit (10 a minute per account) is the
// contract's per-operation limit, applied by the rate-limit plugin before the body is read.
import { randomBytes } from "node:crypto";
import { type ErrorCode, serializeError } from "@plumbline-kit/contract";
import { FEEDBACK_BODY_LIMIT_BYTES } from "@plumbline-kit/contract/error-catalogue";
import type { FastifyError, FastifyInstance } from "fastify";
import { parserErrorCode } from "./error-handling-plugin.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { sendError } from "./request-state.ts";
import type { FeedbackReport, FeedbackStore } from "./stores.ts";

export { FEEDBACK_BODY_LIMIT_BYTES };

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** `fb_` and 20 base32 characters (100 random bits). */
export function feedbackId(): string {
  const bytes = randomBytes(20);
  let id = "fb_";
  for (const b of bytes) id += BASE32[b & 31];
  return id;
}

function bodyRefusal(err: FastifyError): ErrorCode | null {
  if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") return "PLB_PAYLOAD_TOO_LARGE";
  if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return "PLB_MEDIA_TYPE_REFUSED";
  return null;
}

/** Serves POST /feedback when the contract has the operation and the implementation gives a store. */
export function feedbackRoute(app: FastifyInstance, o: PlatformOptions & { feedback?: FeedbackStore }): void {
  const op = o.contract.findOperation("feedback");
  const store = o.feedback;
  if (!op || !store) return;
  app.route({
    method: "POST",
    url: op.routePath,
    config: { operationId: op.operationId },
    bodyLimit: FEEDBACK_BODY_LIMIT_BYTES,
    errorHandler: async (err: FastifyError, req, reply) => {
      const code = bodyRefusal(err) ?? parserErrorCode(err);
      if (code) {
        const message = code === "PLB_MALFORMED_JSON" ? err.message : undefined;
        return sendError(reply, serializeError(code, { message }));
      }
      req.log.error({ err }, "unexpected error");
      return sendError(reply, serializeError("PLB_INTERNAL"));
    },
    handler: async (req, reply) => {
      const account = req.account;
      if (!account) return sendError(reply, serializeError("PLB_MISSING_CREDENTIAL"));
      const check = o.contract.validators.checkBody(op.operationId, req.body);
      if (!check.ok) {
        if (check.kind === "shape") return sendError(reply, serializeError("PLB_BODY_SHAPE"));
        return sendError(reply, serializeError("PLB_VALIDATION_FAILED", { errors: check.errors }));
      }
      const body = req.body as Omit<FeedbackReport, "id" | "accountId" | "requestId" | "receivedAt" | "category"> & {
        category?: FeedbackReport["category"];
      };
      const report: FeedbackReport = {
        ...body,
        category: body.category ?? "other",
        id: feedbackId(),
        accountId: account.id,
        requestId: req.id,
        receivedAt: new Date(o.clock.now()).toISOString(),
      };
      try {
        await store.add(report);
      } catch (err) {
        // nothing kept, so no 201 (D-feedback)
        req.log.error({ err }, "feedback store failed");
        return sendError(
          reply,
          serializeError("PLB_SERVICE_UNAVAILABLE", { message: "The report could not be stored; try again" }),
        );
      }
      return reply.code(201).send({ id: report.id, status: "new" });
    },
  });
}
