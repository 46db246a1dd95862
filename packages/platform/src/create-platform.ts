// createPlatform(): the contract's behaviour common to mock and reference, as one Fastify instance over
// injected stores, clock and engines (brief: "written once, in reference/platform/").
import { REQUEST_BODY_LIMIT_BYTES } from "@plumbline-kit/contract/error-catalogue";
import Fastify, { type FastifyInstance } from "fastify";
import { accountRoutes } from "./account-routes.ts";
import { agentDiscoveryRoutes } from "./agent-discovery-routes.ts";
import { authPlugin } from "./auth-plugin.ts";
import { discoveryRoutes } from "./discovery-routes.ts";
import { documentRoute } from "./document-route.ts";
import { errorHandlingPlugin } from "./error-handling-plugin.ts";
import { feedbackRoute } from "./feedback-route.ts";
import {
  addBodyDeadline,
  clientErrorHandler,
  DEFAULT_REQUEST_TIMEOUTS,
  frameworkErrorHandler,
} from "./framework-errors.ts";
import { loggerOptions } from "./log-options.ts";
import { mcpRoutes } from "./mcp-routes.ts";
import { createExecutors } from "./operation-executors.ts";
import { createPaidHandler } from "./paid-operation.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { rateLimitPlugin } from "./rate-limit-plugin.ts";
import { requestHeadersPlugin, requestIdFrom } from "./request-headers-plugin.ts";
import { keepTickObjectMap } from "./tick-object-map.ts";

export interface CreatePlatformOptions extends PlatformOptions {
  /** hooks and routes the implementation adds before the contract's routes (the mock's steering, admin API) */
  extend?: (app: FastifyInstance) => Promise<void> | void;
}

export async function createPlatform(o: CreatePlatformOptions): Promise<FastifyInstance> {
  keepTickObjectMap(); // before the first request: every process.nextTick stays a fast literal (tick-object-map.ts)
  const app = Fastify({
    // a secret sent in the query string is never logged in clear (spec/secrets.ts)
    logger: loggerOptions(o.logger),
    bodyLimit: o.bodyLimit ?? REQUEST_BODY_LIMIT_BYTES,
    genReqId: (req) => requestIdFrom(req.headers["x-request-id"]),
    // an unknown query parameter or a trailing slash is not worth a 404
    routerOptions: { ignoreTrailingSlash: true },
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // errors raised before a route runs answer in the contract's shape too (D-framework-errors)
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    requestTimeout: o.requestTimeouts?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUTS.requestTimeoutMs,
    http: {
      connectionsCheckingInterval: o.requestTimeouts?.checkIntervalMs ?? DEFAULT_REQUEST_TIMEOUTS.checkIntervalMs,
    },
  });
  await app.register(errorHandlingPlugin);
  addBodyDeadline(app, o.requestTimeouts?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUTS.requestTimeoutMs);
  await app.register(requestHeadersPlugin);
  // set when a recorded answer is served (recorded-answers.ts); only the mock's replay has any
  if (o.recorded) app.decorateRequest("replayedFrom", null);
  if (o.extend) await o.extend(app);
  await app.register(authPlugin, o);
  await app.register(rateLimitPlugin, o);

  const executors = createExecutors(o.engines, o.deepcrawl);
  for (const op of o.contract.contractOperations) {
    if (!op.pricing || executors[op.operationId]) continue;
    if (!o.documentExecutor) throw new Error(`no engine serves operation ${op.operationId} (${op.method} ${op.path})`);
    executors[op.operationId] = o.documentExecutor(op);
  }
  const paid = createPaidHandler(o, executors, (err, requestId) =>
    app.log.error({ err, reqId: requestId }, "engine error"),
  );
  for (const op of o.contract.contractOperations.filter((c) => c.pricing)) {
    app.route({
      method: op.method.toUpperCase() as "POST",
      url: op.routePath,
      config: { operationId: op.operationId },
      handler: paid,
    });
  }
  accountRoutes(app, o);
  discoveryRoutes(app, o);
  agentDiscoveryRoutes(app, o);
  await mcpRoutes(app, o);
  feedbackRoute(app, o);
  // free operations of the document that no route above serves (another version of the contract adds one)
  for (const op of o.contract.contractOperations) {
    if (op.pricing || app.hasRoute({ method: op.method.toUpperCase() as "GET", url: op.routePath })) continue;
    if (!o.documentExecutor) throw new Error(`no route serves operation ${op.operationId} (${op.method} ${op.path})`);
    documentRoute(app, o, op, o.documentExecutor(op));
  }
  app.addHook("preClose", (done) => {
    // Graceful shutdown: Node closes the connections that are idle when close() is called; one busy with a call
    // then would, once answered, stay open idle for the keep-alive timeout (72 s) and hold the exit back
    const timer = setInterval(() => app.server.closeIdleConnections(), 100);
    timer.unref();
    app.server.once("close", () => clearInterval(timer));
    done();
  });
  return app;
}
