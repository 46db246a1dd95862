// The throttling answer (interface-spec "Limits" 4: 429 is the status; D-rate-limits): the contract's error with code
// PLB_RATE_LIMITED, Retry-After in seconds and no longer than the advertised window, and the IETF headers saying the
// window is used up (`RateLimit: "…";r=0;t=…`) and what it is (`RateLimit-Policy: "…";q=…;w=…`). Judged on every 429
// of an operation, planned (the conformance suite's deliberate 429) or seen (the proxy, the fuzzer's throttled cases).
import { parseRateLimit, parseRateLimitPolicy } from "../rate-limit-headers.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

export const RATE_LIMITED_CODE = "PLB_RATE_LIMITED";

const throttled = (ctx: ExchangeContext) => ctx.status === 429 && ctx.op !== null;

export const retryAfter: ExchangeRule = {
  kind: "exchange",
  id: "rate-limit-retry-after",
  title: "A 429 carries Retry-After in seconds, no longer than the window its RateLimit-Policy advertises",
  side: "response",
  severity: "major",
  basis: "Limits 4; D-rate-limits",
  passive: true,
  needs: [],
  check(ctx) {
    if (!throttled(ctx)) return [];
    const retry = ctx.headers["retry-after"];
    if (retry === undefined || !/^\d+$/.test(retry.trim()))
      return [
        {
          rule: this.id,
          message: "429 without a Retry-After in seconds",
          expected: "Retry-After: <seconds>",
          actual: retry ?? "(none)",
          field: "/headers/retry-after",
        },
      ];
    const seconds = Number(retry.trim());
    const window = parseRateLimitPolicy(ctx.headers["ratelimit-policy"])?.windowSeconds;
    if (window !== undefined && seconds > window)
      return [
        {
          rule: this.id,
          message: `Retry-After ${seconds} s is longer than the advertised window (w=${window})`,
          expected: `Retry-After ≤ ${window}`,
          actual: retry.trim(),
          field: "/headers/retry-after",
        },
      ];
    return [];
  },
};

export const rateLimitCode: ExchangeRule = {
  kind: "exchange",
  id: "rate-limit-error-code",
  title: "A 429 is the contract's error with code PLB_RATE_LIMITED",
  side: "response",
  severity: "major",
  basis: "Limits 4; D-rate-limits; D-error-codes",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (!throttled(ctx) || (!ctx.json && !ctx.bytes)) return [];
    const body = ctx.json?.ok ? ctx.json.value : undefined;
    const code =
      body !== null && typeof body === "object" && !Array.isArray(body)
        ? (body as Record<string, unknown>).code
        : undefined;
    if (code === RATE_LIMITED_CODE) return [];
    return [
      {
        rule: this.id,
        message: `the 429 body is not the contract's error (code ${RATE_LIMITED_CODE})`,
        expected: `{ok: false, error, code: "${RATE_LIMITED_CODE}", message}`,
        actual: code === undefined ? "(no code)" : String(code),
        field: "/code",
      },
    ];
  },
};

export const rateLimitHeaders: ExchangeRule = {
  kind: "exchange",
  id: "rate-limit-headers",
  title: "A 429 carries RateLimit saying the window is used up (r=0) and RateLimit-Policy naming it (q, w)",
  side: "response",
  severity: "major",
  basis: "Limits 4; D-rate-limits",
  passive: true,
  needs: [],
  check(ctx) {
    if (!throttled(ctx)) return [];
    const out: Violation[] = [];
    if (parseRateLimit(ctx.headers.ratelimit)?.remaining !== 0)
      out.push({
        rule: this.id,
        message: "429 without a RateLimit header saying the window is used up",
        expected: 'RateLimit: "default";r=0;t=<seconds>',
        actual: ctx.headers.ratelimit ?? "(none)",
        field: "/headers/ratelimit",
      });
    if (!parseRateLimitPolicy(ctx.headers["ratelimit-policy"]))
      out.push({
        rule: this.id,
        message: "429 without a RateLimit-Policy header",
        expected: 'RateLimit-Policy: "default";q=<quota>;w=<seconds>',
        actual: ctx.headers["ratelimit-policy"] ?? "(none)",
        field: "/headers/ratelimit-policy",
      });
    return out;
  },
};
