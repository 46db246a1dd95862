// The free operations: health, usage and deepcrawl status, plus the zip route zipUrl points at.

import { serializeError } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { statusResponse } from "./deepcrawl-service.ts";
import { isPayerAccount } from "./payment-accounting.ts";
import { bearerChallenge } from "./payment-challenge.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { sendRecorded } from "./recorded-answers.ts";
import { baseUrlOf, sendError } from "./request-state.ts";

/** Parameters on operations that list no 422 are answered 400 with the same errors[] (D-validation-status). */
function parameterError(o: PlatformOptions, req: FastifyRequest, reply: FastifyReply): FastifyReply | null {
  const op = req.operation;
  if (!op || op.parameters.length === 0) return null;
  const check = o.contract.validators.checkParameters(op.operationId, {
    query: req.query as Record<string, unknown>,
    path: req.params as Record<string, unknown>,
  });
  if (check.ok) return null;
  return sendError(reply, serializeError("PLB_BAD_PARAMETER", { errors: check.errors }));
}

export function accountRoutes(app: FastifyInstance, o: PlatformOptions) {
  const route = (operationId: string) => {
    const op = o.contract.operation(operationId);
    return { method: op.method.toUpperCase() as "GET", url: op.routePath, config: { operationId } };
  };

  app.route({
    ...route("health"),
    handler: async () => ({
      status: "ok",
      timestamp: new Date(o.clock.now()).toISOString(),
      version: o.contract.version,
    }),
  });

  app.route({
    ...route("usage"),
    handler: async (req, reply) => {
      const bad = parameterError(o, req, reply);
      if (bad) return bad;
      const account = req.account;
      if (!account) return sendError(reply, serializeError("PLB_MISSING_CREDENTIAL"));
      return {
        usage: await o.accounts.balance(account.id),
        user_id: account.userId,
        credential_type: account.credentialType,
        client_id: account.clientId,
      };
    },
  });

  app.route({
    ...route("deepcrawlStatus"),
    handler: async (req, reply) => {
      const bad = parameterError(o, req, reply);
      if (bad) return bad;
      // the mock's replay: a recorded poll of a recorded task (recorded-answers.ts)
      const found = o.recorded?.find(req, "deepcrawlStatus", undefined);
      if (found) return sendRecorded(req, reply, found);
      const { taskId } = req.params as { taskId: string };
      const stored = await o.deepcrawl.get(taskId);
      if (!req.account && !(stored && isPayerAccount(stored.accountId))) {
        // D-status-auth: without a credential only a task paid per request (it has no account) is read, by its id;
        // any other id, known or not, answers the 401 of a missing credential, so an id's existence is not revealed
        return sendError(reply, serializeError("PLB_MISSING_CREDENTIAL"), {
          "www-authenticate": bearerChallenge(baseUrlOf(req, o.publicUrl)),
        });
      }
      // D-status-auth: another account's task answers as an unknown one, so its existence is not revealed
      const task = stored && (stored.accountId === req.account?.id || isPayerAccount(stored.accountId)) ? stored : null;
      if (!task) {
        // D-status-not-found: 404 whose body is a status response with status not_found and the error members
        const e = serializeError("PLB_TASK_NOT_FOUND", { message: `No deepcrawl task with id ${taskId}` });
        const { status: _rfc9457Status, ...members } = e.body;
        return reply
          .code(404)
          .type("application/json")
          .send({ ...members, taskId, status: "not_found", success: false });
      }
      return statusResponse(task, baseUrlOf(req, o.publicUrl), o.deepcrawl.links);
    },
  });

  // where zipUrl points (zipPath(); D-deepcrawl-zip): a signed, expiring link (deepcrawl-link.ts); a missing, expired
  // or tampered signature answers 404 like an unknown task, so a link tells nothing once it is no longer valid
  app.get("/deepcrawl/files/:file", async (req, reply) => {
    // the mock's replay: the recorded download of a recorded task's zip, its link signed by whoever recorded it
    const found = o.recorded?.find(req, null, undefined);
    if (found) return sendRecorded(req, reply, found);
    const { file } = req.params as { file: string };
    const taskId = file.endsWith(".zip") ? file.slice(0, -4) : file;
    const notFound = () =>
      sendError(
        reply,
        serializeError("PLB_TASK_NOT_FOUND", {
          message: `No packaged result for ${taskId} at this link (unknown, unfinished, expired or altered); poll the task's status for a fresh zipUrl`,
        }),
      );
    if (!o.deepcrawl.links.verify(taskId, req.query as Record<string, unknown>)) return notFound();
    const zip = await o.deepcrawl.archive(taskId);
    if (!zip) return notFound();
    reply.type("application/zip").header("content-disposition", `attachment; filename="${taskId}.zip"`);
    if (zip.bytes !== null) reply.header("content-length", zip.bytes);
    return reply.send(zip.body);
  });
}
