// Cross-cutting checks over every exchange the run made with the target's operations (phase "traffic": they run
// after all others). Each answer is judged against the document for its operation and status.
import { STATUS_LABELS } from "../../spec/index.ts";
import { requestPrice } from "../../spec/payment-amount.ts";

const PAYMENT_PROBLEM_BASE = "https://paymentauth.org/problems/";

import { describe, failure, grouped, status } from "../check-helpers.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

const judged = (ctx: RunContext) => ctx.http.exchanges.filter((e) => e.operationId !== null && e.response);

function responseProblems(ctx: RunContext, keep: (code: string) => boolean): Failure[] {
  const items = [];
  for (const ex of judged(ctx)) {
    const r = ex.response as NonNullable<Exchange["response"]>;
    const isJson = /[/+]json\b/.test(r.contentType);
    let errors = ctx.contract.validators.checkResponse(ex.operationId as string, r.status, r.contentType, r.json);
    if (!errors && isJson && r.json === undefined && r.bytes > 0)
      errors = [{ field: "", message: "body is not valid JSON", code: "json" }];
    for (const e of (errors ?? []).filter((x) => keep(x.code))) {
      items.push({ message: `${ex.operationId} ${r.status}: ${e.message}`, ex, actual: e.code });
    }
  }
  return grouped(items);
}

const traffic = (def: Omit<CheckDefinition, "phase">): CheckDefinition => ({ ...def, phase: "traffic" });

const statusListed = traffic({
  id: "response-status-listed",
  title: "Every answer's status is one its operation lists",
  severity: "major",
  section: "Endpoints; Errors",
  basis: { kind: "contract" },
  run: async (ctx) => ({ failures: responseProblems(ctx, (c) => c === "status") }),
});

const IMAGE_MAGIC: Record<string, (b: Buffer) => boolean> = {
  "image/png": (b) => b.subarray(0, 8).toString("hex") === "89504e470d0a1a0a",
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8,
  "image/webp": (b) => b.subarray(0, 4).toString() === "RIFF" && b.subarray(8, 12).toString() === "WEBP",
};

const mediaType = traffic({
  id: "response-media-type",
  title: "Every answer has its declared media type (JSON, problem+json for 402, the requested image type)",
  severity: "major",
  section: "What the service does; POST /screenshot; Errors",
  basis: { kind: "contract" },
  async run(ctx) {
    const failures = responseProblems(ctx, (c) => c === "contentType");
    for (const ex of judged(ctx).filter((e) => e.operationId === "screenshot" && status(e) === 200)) {
      const format = (ex.sent as { format?: string } | undefined)?.format ?? "png";
      const want = `image/${format}`;
      const ct = ex.response?.contentType.split(";")[0].trim();
      if (ct !== want) failures.push(failure("screenshot answered another image type than asked", [ex], want, ct));
      else if (!IMAGE_MAGIC[want]?.(ex.raw ?? Buffer.alloc(0)))
        failures.push(failure(`screenshot body is not a ${format} image`, [ex], want, `${ex.raw?.length} bytes`));
    }
    return { failures };
  },
});

const schema = traffic({
  id: "response-schema",
  title: "Every JSON answer validates against the document's schema for its operation and status",
  severity: "critical",
  section: "Resources and their fields; Errors",
  basis: { kind: "contract" },
  run: async (ctx) => ({ failures: responseProblems(ctx, (c) => c !== "status" && c !== "contentType") }),
});

const headers = traffic({
  id: "response-headers-declared",
  title: "Every answer carries the headers its response declares (WWW-Authenticate, Retry-After, Link, …)",
  severity: "major",
  section: "Authentication 4; Limits 4",
  basis: { kind: "decision", decision: "D-headers" },
  async run(ctx) {
    const items = [];
    for (const ex of judged(ctx)) {
      const r = ex.response as NonNullable<Exchange["response"]>;
      for (const e of ctx.contract.validators.checkResponseHeaders(ex.operationId as string, r.status, r.headers) ??
        []) {
        items.push({ message: `${ex.operationId} ${r.status}: ${e.message}`, ex });
      }
    }
    return { failures: grouped(items) };
  },
});

const requestId = traffic({
  id: "x-request-id",
  title: "Every answer carries x-request-id, echoing the one the client sent",
  severity: "major",
  section: "Errors (request id)",
  basis: { kind: "decision", decision: "D-headers" },
  async run(ctx) {
    const items = [];
    for (const ex of judged(ctx)) {
      const sent = ex.request.headers["x-request-id"];
      const got = ex.response?.headers["x-request-id"];
      if (!got) items.push({ message: "answer without x-request-id", ex, expected: sent, actual: "(none)" });
      else if (got !== sent)
        items.push({ message: "x-request-id does not echo the request's", ex, expected: sent, actual: got });
    }
    return { failures: grouped(items) };
  },
});

const linkHeader = traffic({
  id: "discovery-link-header",
  title: 'Every answer carries Link with </openapi.json>; rel="service-desc"',
  severity: "minor",
  section: "Discovery endpoints",
  basis: { kind: "decision", decision: "D-headers" },
  async run(ctx) {
    const items = judged(ctx)
      .filter((ex) => !/<[^>]*\/openapi\.json>;\s*rel="service-desc"/.test(ex.response?.headers.link ?? ""))
      .map((ex) => ({
        message: "answer without the service-desc Link",
        ex,
        actual: ex.response?.headers.link ?? "(none)",
      }));
    return { failures: grouped(items) };
  },
});

const errorMembers = traffic({
  id: "error-body-members",
  title: "Every error answer is a JSON body with ok: false, error and message",
  severity: "major",
  section: "Errors",
  basis: { kind: "decision", decision: "D-error-body" },
  async run(ctx) {
    const items = [];
    for (const ex of judged(ctx).filter((e) => (status(e) ?? 0) >= 400)) {
      const b = ex.response?.json as Record<string, unknown> | undefined;
      const missing = [
        b?.ok === false ? "" : "ok:false",
        typeof b?.error === "string" ? "" : "error",
        typeof b?.message === "string" ? "" : "message",
      ].filter(Boolean);
      if (missing.length)
        items.push({ message: `${ex.operationId} ${status(ex)}: error body lacks ${missing.join(", ")}`, ex });
    }
    return { failures: grouped(items) };
  },
});

const errorLabel = traffic({
  id: "error-status-label",
  title: "Every error body's `error` is the status label of the interface's status table",
  severity: "minor",
  section: "Errors",
  basis: { kind: "decision", decision: "D-error-body" },
  async run(ctx) {
    const items = [];
    for (const ex of judged(ctx).filter((e) => (status(e) ?? 0) >= 400)) {
      const want = STATUS_LABELS[status(ex) as number];
      const got = (ex.response?.json as { error?: unknown } | undefined)?.error;
      if (want && typeof got === "string" && got !== want)
        items.push({ message: `${status(ex)} labelled "${got}"`, ex, expected: want, actual: got });
    }
    return { failures: grouped(items) };
  },
});

function paymentParams(header: string): Record<string, string> | null {
  const m = /Payment\s+((?:[a-z_]+="[^"]*"(?:,\s*)?)+)/i.exec(header);
  if (!m) return null;
  return Object.fromEntries([...m[1].matchAll(/([a-z_]+)="([^"]*)"/gi)].map((x) => [x[1].toLowerCase(), x[2]]));
}

const paymentChallenge = traffic({
  id: "payment-challenge",
  title: "Every 402 carries a Payment challenge: id/realm/method/intent charge/expiry and the request's price",
  severity: "major",
  section: "What the service does 2-3; Authentication",
  basis: { kind: "decision", decision: "D-payment-challenge" },
  async run(ctx) {
    const found = judged(ctx).filter((e) => status(e) === 402);
    if (found.length === 0) return { failures: [], skip: "no 402 answer was observed in the run" };
    const items = [];
    for (const ex of found) {
      const r = ex.response as NonNullable<Exchange["response"]>;
      const p = paymentParams(r.headers["www-authenticate"] ?? "");
      const body = (r.json ?? {}) as Record<string, unknown>;
      const pricing = ctx.contract.prices.get(ex.operationId as string);
      // the price of what was sent: the operation's price per entry, surcharges included (D-payment-challenge)
      const price = pricing ? requestPrice(ctx.contract.prices, ex.operationId as string, ex.sent) : undefined;
      const expires = Date.parse(p?.expires ?? "");
      let request: Record<string, unknown> = {};
      try {
        request = JSON.parse(Buffer.from(p?.request ?? "", "base64url").toString("utf8"));
      } catch {
        // reported below as a missing amount
      }
      const problems = [
        !p && "no Payment challenge in WWW-Authenticate",
        p && !(p.id && p.realm && p.method) && "challenge lacks id, realm or method",
        p && p.intent !== "charge" && 'intent is not "charge"',
        p && Number.isNaN(expires) && "challenge has no expires",
        p && expires < Date.now() - ex.durationMs - 60_000 && `challenge expired on issue (${p.expires})`,
        p && request.amount !== price && `request amount ${String(request.amount)} is not the price ${price}`,
        r.headers["cache-control"] !== "no-store" && "Cache-Control is not no-store",
        !String(body.type).startsWith(PAYMENT_PROBLEM_BASE) && "problem type is not a paymentauth.org problem type",
        body.status !== 402 && "problem status is not 402",
        p && body.challengeId !== p.id && "challengeId differs from the challenge id",
      ].filter((x): x is string => typeof x === "string");
      for (const m of problems) items.push({ message: `${ex.operationId} 402: ${m}`, ex });
    }
    return { failures: grouped(items), notes: [`${found.length} 402 answers judged`] };
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
