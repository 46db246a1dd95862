// Cross-cutting checks over every exchange the run made with the target's operations (phase "traffic": they run
// after all others). Each answer is judged by the contract registry's rules (spec/checks); these checks choose the
// rules, and group the findings (one failure per distinct message, listing the exchanges that show it).
import { answerFailures } from "../answer-judge.ts";
import { describe, grouped, status } from "../check-helpers.ts";
import type { CheckDefinition, RunContext } from "../types.ts";

const judged = (ctx: RunContext) => ctx.http.exchanges.filter((e) => e.operationId !== null && e.response);

const traffic = (def: Omit<CheckDefinition, "phase">): CheckDefinition => ({ ...def, phase: "traffic" });

const statusListed = traffic({
  id: "response-status-listed",
  title: "Every answer's status is one its operation lists",
  severity: "major",
  section: "Endpoints; Errors",
  basis: { kind: "contract" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["response-status-listed"]) }),
});

const mediaType = traffic({
  id: "response-media-type",
  title: "Every answer has its declared media type (JSON, problem+json for 402, the requested image type)",
  severity: "major",
  section: "What the service does; POST /screenshot; Errors",
  basis: { kind: "contract" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["response-content-type", "screenshot-image"]) }),
});

const schema = traffic({
  id: "response-schema",
  title: "Every JSON answer validates against the document's schema for its operation and status",
  severity: "critical",
  section: "Resources and their fields; Errors",
  basis: { kind: "contract" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["response-schema"]) }),
});

const headers = traffic({
  id: "response-headers-declared",
  title: "Every answer carries the headers its response declares (WWW-Authenticate, Retry-After, Link, …)",
  severity: "major",
  section: "Authentication 4; Limits 4",
  basis: { kind: "decision", decision: "D-headers" },
  run: async (ctx) => ({
    failures: answerFailures(ctx, [
      "response-headers",
      "auth-challenge",
      "rate-limit-retry-after",
      "rate-limit-headers",
    ]),
  }),
});

const requestId = traffic({
  id: "x-request-id",
  title: "Every answer carries x-request-id, echoing the one the client sent",
  severity: "major",
  section: "Errors (request id)",
  basis: { kind: "decision", decision: "D-headers" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["request-id-echo"], undefined, () => "") }),
});

const linkHeader = traffic({
  id: "discovery-link-header",
  title: 'Every answer carries Link with </openapi.json>; rel="service-desc"',
  severity: "minor",
  section: "Discovery endpoints",
  basis: { kind: "decision", decision: "D-headers" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["discovery-link-header"], undefined, () => "") }),
});

const errorMembers = traffic({
  id: "error-body-members",
  title: "Every error answer is a JSON body with ok: false, error and message",
  severity: "major",
  section: "Errors",
  basis: { kind: "decision", decision: "D-error-body" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["error-body-members"]) }),
});

const errorLabel = traffic({
  id: "error-status-label",
  title: "Every error body's `error` is the status label of the interface's status table",
  severity: "minor",
  section: "Errors",
  basis: { kind: "decision", decision: "D-error-body" },
  run: async (ctx) => ({ failures: answerFailures(ctx, ["error-status-label"], undefined, () => "") }),
});

const paymentChallenge = traffic({
  id: "payment-challenge",
  title: "Every 402 carries a Payment challenge: id/realm/method/intent charge/expiry and the request's price",
  severity: "major",
  section: "What the service does 2-3; Authentication",
  basis: { kind: "decision", decision: "D-payment-challenge" },
  async run(ctx) {
    const found = judged(ctx).filter((e) => status(e) === 402);
    if (found.length === 0) return { failures: [], skip: "no 402 answer was observed in the run" };
    const failures = answerFailures(ctx, ["payment-problem", "payment-challenge"], (e) => status(e) === 402);
    return { failures, notes: [`${found.length} 402 answers judged`] };
  },
});

const transport = traffic({
  id: "no-transport-errors",
  title: "Every request got an HTTP answer within the request timeout",
  severity: "critical",
  section: "What the service does 1",
  basis: { kind: "contract" },
  async run(ctx) {
    const items = ctx.http.exchanges
      .filter((e) => !e.response)
      .map((ex) => ({ message: `no answer: ${ex.error ?? "unknown"}`, ex, actual: describe(ex) }));
    return { failures: grouped(items) };
  },
});

export const TRAFFIC_CHECKS = [
  statusListed,
  mediaType,
  schema,
  headers,
  requestId,
  linkHeader,
  errorMembers,
  errorLabel,
  paymentChallenge,
  transport,
];
