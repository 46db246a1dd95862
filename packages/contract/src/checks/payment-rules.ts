// The 402 payment problem (interface-spec "What the service does" 2-3; D-payment-challenge): problem+json with the
// paymentauth.org type, title, status 402, detail and the contract's error members, a Payment challenge a client
// can pay with (id, realm, method, intent charge, an expiry, the request's price), never a receipt. Judged on
// every 402, planned or seen.
import { PAYMENT_PROBLEM_TYPE } from "../error-body.ts";
import { requestPrice } from "../payment-amount.ts";
import { paymentChallenges } from "../payment-challenges.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";

/** paymentauth.org problem types share this base (the type names the problem: payment-required, …) */
export const PAYMENT_PROBLEM_BASE = PAYMENT_PROBLEM_TYPE.replace(/[^/]*$/, "");

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

function violations(rule: string, problems: Array<string | false | undefined>): Violation[] {
  return problems.filter((p): p is string => typeof p === "string").map((message) => ({ rule, message }));
}

/** The problems of a 402's body and headers, without what the challenge's parameters say (payment-challenge). */
export function paymentProblems(ctx: ExchangeContext): string[] {
  const body = ctx.json?.ok ? obj(ctx.json.value) : undefined;
  const challenges = paymentChallenges(ctx.headers["www-authenticate"]);
  const out: Array<string | false> = [
    !/\bPayment\s/.test(ctx.headers["www-authenticate"] ?? "") && "no Payment challenge in WWW-Authenticate",
    ctx.headers["payment-receipt"] !== undefined && "a Payment-Receipt on a refusal",
  ];
  if (body)
    out.push(
      !String(body.type ?? "").startsWith(PAYMENT_PROBLEM_BASE) && "problem type is not a paymentauth.org problem type",
      body.status !== 402 && "problem status is not 402",
      typeof body.title !== "string" && "problem has no title",
      typeof body.detail !== "string" && "problem has no detail",
      challenges.length > 0 &&
        !challenges.some((c) => c.id === body.challengeId) &&
        "challengeId differs from the challenge id",
    );
  return out.filter((p): p is string => typeof p === "string");
}

export const paymentProblem: ExchangeRule = {
  kind: "exchange",
  id: "payment-problem",
  title: "A 402 is the payment problem: problem+json with type, title, status 402, detail, and a Payment challenge",
  side: "response",
  severity: "major",
  basis: "What the service does 2-3; D-payment-challenge",
  passive: true,
  needs: [],
  check(ctx) {
    if (ctx.status !== 402 || !ctx.op) return [];
    const header = ctx.memo("header-errors-402", () =>
      (ctx.contract.validators.checkResponseHeaders(ctx.op?.operationId ?? "", 402, ctx.headers) ?? []).filter(
        (e) => e.field === "/headers/www-authenticate",
      ),
    );
    return [
      ...header.map((e) => ({ rule: this.id, message: e.message, actual: "www-authenticate" })),
      ...violations(this.id, paymentProblems(ctx)),
    ];
  },
};

/** A challenge's lifetime beyond which it is judged wrong (the decided default is 300 s; D-payment-challenge). */
export const MAX_CHALLENGE_LIFETIME_MS = 3_600_000;

export const paymentChallenge: ExchangeRule = {
  kind: "exchange",
  id: "payment-challenge",
  title:
    "Every Payment challenge of a 402 is payable: id/realm/method, intent charge, an expiry within the hour, the request's price, the host as realm; a Bearer challenge beside; Cache-Control: no-store",
  side: "response",
  severity: "major",
  basis: "What the service does 2-3; Authentication; D-payment-challenge",
  passive: true,
  needs: ["request-body"],
  check(ctx) {
    if (ctx.status !== 402 || !ctx.op) return [];
    const header = ctx.headers["www-authenticate"];
    const challenges = paymentChallenges(header);
    if (challenges.length === 0) return []; // payment-problem names a missing challenge
    const at = ctx.exchange.at;
    const host = ctx.exchange.host;
    const priced = ctx.op.pricing !== null && ctx.sentKnown;
    const price = priced ? requestPrice(ctx.contract.prices, ctx.op.operationId, ctx.sent) : undefined;
    const out: Violation[] = [];
    const add = (code: string, message: string | false, expected?: string, actual?: string) => {
      if (message)
        out.push({ rule: this.id, code, message, ...(expected ? { expected } : {}), ...(actual ? { actual } : {}) });
    };
    for (const p of challenges) {
      const named = challenges.length > 1 ? `${p.method || "(no method)"} challenge: ` : "";
      const expires = Date.parse(p.expires ?? "");
      add("params", !(p.id && p.realm && p.method) && `${named}challenge lacks id, realm or method`);
      add("intent", p.intent !== "charge" && `${named}intent is not "charge"`, "charge", p.intent || "(none)");
      add("expires", Number.isNaN(expires) && `${named}challenge has no expires`);
      add(
        "expires",
        at !== undefined && expires < at - 60_000 && `${named}challenge expired on issue (${p.expires})`,
        "an expiry after the answer",
        p.expires,
      );
      add(
        "expires",
        at !== undefined &&
          expires > at + MAX_CHALLENGE_LIFETIME_MS &&
          `${named}challenge expires ${p.expires}, more than an hour after issue`,
        "expires within the hour (300 s by default)",
        p.expires,
      );
      add(
        "amount",
        priced &&
          String(p.request.amount) !== price &&
          `${named}request amount ${String(p.request.amount)} is not the price ${price}`,
        price,
        String(p.request.amount),
      );
      add(
        "realm",
        host !== undefined && p.realm !== "" && p.realm !== host && `${named}realm ${p.realm} is not the host ${host}`,
        host,
        p.realm,
      );
    }
    add(
      "bearer",
      !/\bBearer\s+[^,]*resource_metadata=/.test(header ?? "") && "no Bearer resource_metadata challenge beside it",
      'Bearer resource_metadata="…"',
    );
    add(
      "cache-control",
      ctx.headers["cache-control"] !== "no-store" && "Cache-Control is not no-store",
      "no-store",
      ctx.headers["cache-control"] ?? "(none)",
    );
    return out;
  },
};
