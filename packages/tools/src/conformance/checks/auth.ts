// Authentication as a client observes it (interface-spec "Authentication" 1-4, "GET /health"; D-auth).
import { baseBody } from "@plumbline-kit/contract/bounds";
import { describe, failure, ok, status } from "../check-helpers.ts";
import { anonymousCallsProbe } from "../probes/anonymous-calls.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";

/** RFC 9728 §5.1: a Bearer challenge naming the protected-resource metadata. */
export function namesResourceMetadata(ex: Exchange): boolean {
  return /Bearer\b[\s\S]*resource_metadata="[^"]+"/.test(ex.response?.headers["www-authenticate"] ?? "");
}

const INVALID = { bearer: "plumbline-conformance-invalid-credential" };

const invalidBearer: CheckDefinition = {
  id: "auth-invalid-bearer-401",
  title: "An invalid bearer credential gets 401 with WWW-Authenticate naming the resource metadata",
  severity: "critical",
  section: "Authentication 1, 4",
  basis: { kind: "contract" },
  async run(ctx) {
    const failures: Failure[] = [];
    for (const op of ctx.contract.contractOperations.filter(
      (o) => o.auth === "required" && ctx.scope.has(o.operationId),
    )) {
      const body = op.requestSchema ? baseBody(op) : undefined;
      const ex = await ctx.http.call(this.id, op.method.toUpperCase(), op.path, { body, auth: INVALID });
      if (status(ex) !== 401)
        failures.push(failure(`${op.operationId} accepted an invalid credential`, [ex], "401", describe(ex)));
      else if (!namesResourceMetadata(ex))
        failures.push(
          failure(
            `${op.operationId}: 401 without resource_metadata`,
            [ex],
            'WWW-Authenticate: Bearer … resource_metadata="…"',
            ex.response?.headers["www-authenticate"] ?? "(none)",
          ),
        );
    }
    return { failures };
  },
};

const anonymous: CheckDefinition = {
  id: "auth-anonymous-refused",
  title: "An anonymous call to a protected operation gets 401 (with resource_metadata) or the 402 problem",
  severity: "critical",
  section: "Authentication 1, 4; What the service does 3",
  basis: { kind: "contract" },
  probes: [anonymousCallsProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    for (const c of await ctx.probe(anonymousCallsProbe)) {
      const s = status(c.exchange);
      const ct = c.exchange.response?.contentType.split(";")[0].trim();
      if (s === 401 && namesResourceMetadata(c.exchange)) continue;
      if (s === 402 && c.paid && ct === "application/problem+json") continue;
      failures.push(
        failure(
          `anonymous ${c.operationId} was not refused as the contract allows`,
          [c.exchange],
          c.paid ? "401 with resource_metadata, or 402 problem+json" : "401 with resource_metadata",
          `${describe(c.exchange)} ${ct ?? ""}`,
        ),
      );
    }
    return { failures };
  },
};

const anonymous402: CheckDefinition = {
  id: "auth-anonymous-payment-challenge",
  title: "Anonymous paid calls get the 402 payment challenge plus a Bearer resource_metadata; /usage gets 401",
  severity: "major",
  section: "Authentication",
  basis: { kind: "decision", decision: "D-auth" },
  probes: [anonymousCallsProbe],
  async run(ctx) {
    const failures: Failure[] = [];
    for (const c of await ctx.probe(anonymousCallsProbe)) {
      const wa = c.exchange.response?.headers["www-authenticate"] ?? "";
      const want = c.paid ? 402 : 401;
      if (status(c.exchange) !== want)
        failures.push(failure(`anonymous ${c.operationId}`, [c.exchange], `${want}`, describe(c.exchange)));
      else if (c.paid && !(/\bPayment\b/.test(wa) && namesResourceMetadata(c.exchange)))
        failures.push(
          failure(
            `anonymous ${c.operationId}: challenge incomplete`,
            [c.exchange],
            'Payment … , Bearer resource_metadata="…"',
            wa || "(none)",
          ),
        );
    }
    return { failures };
  },
};

const healthOpen: CheckDefinition = {
  id: "auth-health-open",
  title: "GET /health needs no credential and does not tell whether a credential is valid",
  severity: "major",
  section: "GET /health",
  basis: { kind: "contract" },
  async run(ctx) {
    const anonymous = await ctx.http.call(this.id, "GET", "/health", { auth: "none" });
    const invalid = await ctx.http.call(this.id, "GET", "/health", { auth: INVALID });
    const failures = [anonymous, invalid]
      .filter((ex) => status(ex) !== 200)
      .map((ex) => failure("GET /health refused", [ex], "200", describe(ex)));
    return { failures };
  },
};

const queryCredential: CheckDefinition = {
  id: "auth-query-credential-ignored",
  title: "A credential in the query string is not accepted",
  severity: "minor",
  section: "Authentication 3",
  basis: { kind: "decision", decision: "D-auth" },
  async run(ctx) {
    const key = encodeURIComponent(ctx.options.apiKey);
    const ex = await ctx.http.call(this.id, "GET", `/usage?api_key=${key}&access_token=${key}`, { auth: "none" });
    if (status(ex) === 401) return ok();
    return { failures: [failure("a credential in the query string was honoured", [ex], "401", describe(ex))] };
  },
};

export const AUTH_CHECKS = [invalidBearer, anonymous, anonymous402, healthOpen, queryCredential];
