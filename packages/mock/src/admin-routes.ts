// The admin API under /__mock/ (off the contract's paths; documented in mock/README.md): reset, accounts and
// balances, the manual clock, the request journal, fault rules, batch entry failures, deepcrawl steering and the
// stores' counts against their bounds.

import { serializeError } from "@plumbline-kit/contract";
import { sendError } from "@plumbline-kit/platform/request-state";
import type { FastifyInstance } from "fastify";
import type { MockAdmin } from "./mock-state.ts";

const int = (minimum = 0) => ({ type: "integer", minimum });

export function adminRoutes(app: FastifyInstance, admin: MockAdmin) {
  const notFound = (what: string) => ({
    ok: false,
    error: "Not Found",
    message: `No ${what}`,
    code: "PLB_ROUTE_NOT_FOUND",
  });

  app.get("/__mock", async () => ({
    endpoints: [
      "POST /__mock/reset",
      "GET|POST /__mock/accounts",
      "PUT /__mock/accounts/:key/balance",
      "DELETE /__mock/accounts/:key",
      "GET /__mock/clock",
      "POST /__mock/clock/advance",
      "POST /__mock/clock/set",
      "GET|DELETE /__mock/journal",
      "GET /__mock/payments",
      "GET /__mock/feedback",
      "PUT /__mock/feedback/failures",
      "GET|POST|DELETE /__mock/faults",
      "DELETE /__mock/faults/:id",
      "GET|PUT|DELETE /__mock/batch-failures",
      "GET /__mock/deepcrawl",
      "PUT /__mock/deepcrawl/steps",
      "PUT|DELETE /__mock/deepcrawl/next",
      "GET|PUT /__mock/oauth",
      "GET /__mock/replay",
      "GET /__mock/stats",
    ],
  }));

  // what the mock holds, store by store, against each bound (docs/mock.md "Memory")
  app.get("/__mock/stats", async () => ({ clock: admin.clock(), stores: admin.stats() }));

  app.get(
    "/__mock/replay",
    async (_req, reply) =>
      admin.replay() ?? reply.code(404).send(notFound("recording: the mock was started without --replay")),
  );

  app.post("/__mock/reset", async () => {
    admin.reset();
    return { ok: true };
  });

  app.get("/__mock/accounts", async () => ({ accounts: admin.accounts() }));
  app.post(
    "/__mock/accounts",
    {
      schema: {
        body: {
          type: "object",
          required: ["credits"],
          additionalProperties: false,
          properties: {
            key: { type: "string", minLength: 1, pattern: "^[\\x21-\\x7e]+$" },
            credits: int(),
            credentialType: { type: "string", enum: ["api_key", "oauth"] },
          },
        },
      },
    },
    async (req, reply) => reply.code(201).send(admin.createAccount(req.body as { credits: number })),
  );
  app.put(
    "/__mock/accounts/:key/balance",
    {
      schema: {
        body: { type: "object", required: ["credits"], additionalProperties: false, properties: { credits: int() } },
      },
    },
    async (req, reply) => {
      const { key } = req.params as { key: string };
      const a = admin.setBalance(key, (req.body as { credits: number }).credits);
      return a ?? reply.code(404).send(notFound(`account with key ${key}`));
    },
  );
  app.delete("/__mock/accounts/:key", async (req, reply) => {
    const { key } = req.params as { key: string };
    return admin.revokeAccount(key) ?? reply.code(404).send(notFound(`account with key ${key}`));
  });

  app.get("/__mock/clock", async () => admin.clock());
  app.post(
    "/__mock/clock/advance",
    { schema: { body: { type: "object", required: ["ms"], additionalProperties: false, properties: { ms: int() } } } },
    async (req) => admin.advanceClock((req.body as { ms: number }).ms),
  );
  app.post(
    "/__mock/clock/set",
    {
      schema: {
        body: {
          type: "object",
          required: ["time"],
          additionalProperties: false,
          properties: { time: { type: "string", format: "date-time" } },
        },
      },
    },
    async (req) => admin.setClock(Date.parse((req.body as { time: string }).time)),
  );

  // reports POST /feedback kept (the live contract, D-feedback): the operator's view, never an account's
  app.get("/__mock/feedback", async () => ({ reports: await admin.feedback.list() }));
  app.put(
    "/__mock/feedback/failures",
    {
      schema: {
        body: {
          type: "object",
          required: ["times"],
          additionalProperties: false,
          properties: { times: { type: "integer", minimum: 0, maximum: 1000 } },
        },
      },
    },
    async (req) => {
      admin.feedback.failNext((req.body as { times: number }).times);
      return { ok: true };
    },
  );
  app.get("/__mock/journal", async (req) => {
    const q = req.query as { operationId?: string; limit?: string };
    return {
      entries: admin.journal.list({ operationId: q.operationId, limit: q.limit ? Number(q.limit) : undefined }),
    };
  });
  app.delete("/__mock/journal", async () => {
    admin.journal.clear();
    return { ok: true };
  });

  app.get("/__mock/faults", async () => ({ faults: admin.faults.list() }));
  app.post(
    "/__mock/faults",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            operationId: { type: "string", minLength: 1 },
            status: { type: "integer", minimum: 200, maximum: 599 },
            latencyMs: { type: "integer", minimum: 0, maximum: 60_000 },
            fault: { type: "string", enum: ["reset", "hang"] },
            probability: { type: "number", minimum: 0, maximum: 1 },
            times: int(1),
          },
        },
      },
    },
    async (req, reply) => reply.code(201).send(admin.faults.add(req.body as object)),
  );
  app.delete("/__mock/faults", async () => {
    admin.faults.clear();
    return { ok: true };
  });
  app.delete("/__mock/faults/:id", async (req, reply) => {
    const { id } = req.params as { id: string };
    return admin.faults.remove(id) ? { ok: true } : reply.code(404).send(notFound(`fault rule ${id}`));
  });

  app.get("/__mock/batch-failures", async () => ({ rule: admin.batchFailures.get() }));
  app.put(
    "/__mock/batch-failures",
    {
      schema: {
        body: {
          type: "object",
          required: ["entries"],
          additionalProperties: false,
          properties: {
            operationId: { type: "string", minLength: 1 },
            entries: { type: "array", items: int() },
            statusCode: { type: "integer", enum: [402, 500, 502] },
          },
        },
      },
    },
    async (req) => {
      const b = req.body as { operationId?: string; entries: number[]; statusCode?: number };
      const rule = { operationId: b.operationId ?? "*", entries: b.entries, statusCode: b.statusCode ?? 502 };
      admin.batchFailures.set(rule);
      return { rule };
    },
  );
  app.delete("/__mock/batch-failures", async () => {
    admin.batchFailures.set(null);
    return { ok: true };
  });

  app.get("/__mock/deepcrawl", async () => ({ steps: admin.deepcrawl.steps, tasks: admin.deepcrawl.list() }));
  app.put(
    "/__mock/deepcrawl/steps",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          properties: { queuedMs: int(), waitingMs: int(), processingMs: int() },
        },
      },
    },
    async (req) => ({ steps: admin.deepcrawl.setSteps(req.body as object) }),
  );
  app.put(
    "/__mock/deepcrawl/next",
    {
      schema: {
        body: {
          type: "object",
          required: ["outcome"],
          additionalProperties: false,
          properties: { outcome: { type: "string", enum: ["completed", "failed"] }, error: { type: "string" } },
        },
      },
    },
    async (req) => {
      const b = req.body as { outcome: "completed" | "failed"; error?: string };
      const scenario =
        b.outcome === "failed"
          ? { outcome: "failed" as const, error: b.error ?? "Failed by the mock" }
          : { outcome: "completed" as const };
      admin.deepcrawl.setNextScenario(scenario);
      return { next: scenario };
    },
  );
  app.delete("/__mock/deepcrawl/next", async () => {
    admin.deepcrawl.setNextScenario(null);
    return { ok: true };
  });

  app.get("/__mock/oauth", async () => admin.oauth.settings());
  app.put(
    "/__mock/oauth",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            grantKey: { type: ["string", "null"], minLength: 1 },
            consent: { type: "string", enum: ["approve", "deny"] },
            accessTokenTtlSeconds: int(1),
            refreshTokenTtlSeconds: int(1),
            codeTtlSeconds: int(1),
          },
        },
      },
    },
    async (req, reply) => {
      const r = admin.oauth.configure(req.body as object);
      if (r.ok) return admin.oauth.settings();
      return sendError(reply, serializeError("PLB_BAD_VALUE", { message: r.description }));
    },
  );
}
