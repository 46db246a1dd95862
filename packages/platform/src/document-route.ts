// A free operation of the document that the platform has no route of its own for (a version of the contract that
// adds one): validated as the contract's routes are (400 for parameters, 422 or 400 for the body:
// D-validation-status), then answered by the implementation's document executor. Paid ones take the paid flow.

import { type OperationSpec, serializeError } from "@plumbline-kit/contract";
import type { FastifyInstance } from "fastify";
import type { EngineContext } from "./engines.ts";
import type { Executor } from "./operation-executors.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { sendError } from "./request-state.ts";
import type { Account } from "./stores.ts";

export function documentRoute(app: FastifyInstance, o: PlatformOptions, op: OperationSpec, exec: Executor): void {
  app.route({
    method: op.method.toUpperCase() as "GET",
    url: op.routePath,
    config: { operationId: op.operationId },
    handler: async (req, reply) => {
      if (op.parameters.length > 0) {
        const params = o.contract.validators.checkParameters(op.operationId, {
          query: req.query as Record<string, unknown>,
          path: req.params as Record<string, unknown>,
        });
        if (!params.ok) return sendError(reply, serializeError("PLB_BAD_PARAMETER", { errors: params.errors }));
      }
      if (op.requestSchema) {
        const body = o.contract.validators.checkBody(op.operationId, req.body);
        if (!body.ok) {
          if (body.kind === "shape") return sendError(reply, serializeError("PLB_BODY_SHAPE"));
          const code = op.statuses.includes(422) ? "PLB_VALIDATION_FAILED" : "PLB_BAD_PARAMETER";
          return sendError(reply, serializeError(code, { errors: body.errors }));
        }
      }
      const engine: EngineContext = { requestId: req.id, variability: "normal", seed: 0, ...o.engineContext?.(req) };
      const out = await exec(req.body, { engine, account: req.account as Account });
      if (!out.ok) return sendError(reply, serializeError(out.code, { message: out.message }));
      return reply.code(out.value.status).type(out.value.contentType).send(out.value.payload);
    },
  });
}
