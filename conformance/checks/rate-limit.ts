// Rate limiting (interface-spec "Limits" 4: 429 is the status; D-rate-limits: Retry-After in seconds). Opt-in: it
// hammers the account until refused, and the account then stays limited for a window, so it runs last.

import { plural } from "../../spec/report/plural.ts";
import { failure, ok } from "../check-helpers.ts";
import type { CheckDefinition, Exchange } from "../types.ts";

const CONCURRENCY = 10;

const retryAfter: CheckDefinition = {
  id: "rate-limit-retry-after",
  title: "Past the account's rate limit the target answers 429 with Retry-After in seconds",
  severity: "major",
  section: "Limits 4",
  basis: { kind: "decision", decision: "D-rate-limits" },
  optIn: true,
  phase: "last",
  async run(ctx) {
    // GET /usage is free and listed with 429: hammering it costs nothing
    const budget = ctx.contract.rateLimits.perAccount + 50;
    let sent = 0;
    let limited: Exchange | undefined;
    while (!limited && sent < budget) {
      const wave = Array.from({ length: Math.min(CONCURRENCY, budget - sent) }, () =>
        ctx.http.call(this.id, "GET", "/usage", { noRetry: true }),
      );
      sent += wave.length;
      limited = (await Promise.all(wave)).find((e) => e.response?.status === 429);
    }
    if (!limited) {
      const last = ctx.http.exchanges.at(-1) as Exchange;
      return {
        failures: [
          failure(`no 429 after ${plural(sent, "request")}`, [last], "429 past the decided limit", "never refused"),
        ],
      };
    }
    const value = limited.response?.headers["retry-after"];
    if (value && /^\d+$/.test(value)) return ok([`429 after ${plural(sent, "request")}, Retry-After ${value}`]);
    return {
      failures: [
        failure("429 without a Retry-After in seconds", [limited], "Retry-After: <seconds>", value ?? "(none)"),
      ],
    };
  },
};

export const RATE_LIMIT_CHECKS = [retryAfter];
