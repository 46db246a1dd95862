// Per-account rate limits (interface-spec "Limits" 4; D-rate-limits): fixed windows shared by all of an
// account's keys, a tighter window for /screenshot, 429 with Retry-After and the IETF RateLimit headers.

import { type RateLimitPolicy, serializeError } from "@plumbline-kit/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { PlatformOptions } from "./platform-options.ts";
import { addOperationHook, sendError } from "./request-state.ts";

export const rateLimitPlugin = fp<Pick<PlatformOptions, "contract" | "rateLimitStore" | "clock" | "rateLimits">>(
  async (app, o) => {
    const policy: RateLimitPolicy = { ...o.contract.rateLimits, ...o.rateLimits };
    const windowMs = policy.windowSeconds * 1000;
    // limiting turned off: no hook at all, so it costs nothing per request
    if (policy.perAccount <= 0) return;

    // after the auth hook that sets the operation and account (registered later, so added later)
    addOperationHook(app, () => limit);

    async function limit(req: FastifyRequest, reply: FastifyReply) {
      const op = req.operation;
      const account = req.account;
      // only authenticated calls count: anonymous ones were answered 402/401 already, status polling is free
      if (!op || !account) return;
      const now = o.clock.now();
      const buckets: Array<{ name: string; key: string; limit: number }> = [
        { name: "default", key: account.id, limit: policy.perAccount },
      ];
      const perOp = policy.perOperation[op.operationId];
      if (perOp) buckets.push({ name: op.operationId, key: `${account.id}:${op.operationId}`, limit: perOp });
      let tightest: { name: string; limit: number; remaining: number; resetS: number } | null = null;
      for (const b of buckets) {
        const { count, resetAtMs } = await o.rateLimitStore.hit(b.key, windowMs, now);
        const remaining = Math.max(0, b.limit - count);
        const resetS = Math.max(1, Math.ceil((resetAtMs - now) / 1000));
        if (count > b.limit) {
          return sendError(
            reply,
            serializeError("PLB_RATE_LIMITED", {
              message: `Rate limit of ${b.limit} requests per ${policy.windowSeconds} s reached`,
            }),
            {
              "retry-after": String(resetS),
              "ratelimit-policy": `"${b.name}";q=${b.limit};w=${policy.windowSeconds}`,
              ratelimit: `"${b.name}";r=0;t=${resetS}`,
            },
          );
        }
        if (!tightest || remaining < tightest.remaining) tightest = { name: b.name, limit: b.limit, remaining, resetS };
      }
      if (tightest) {
        reply.header("ratelimit-policy", `"${tightest.name}";q=${tightest.limit};w=${policy.windowSeconds}`);
        reply.header("ratelimit", `"${tightest.name}";r=${tightest.remaining};t=${tightest.resetS}`);
      }
    }
  },
  { name: "plumbline-rate-limit", dependencies: ["plumbline-auth"] },
);
