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

export const paymentChallenge: ExchangeRule = {
  kind: "exchange",
  id: "payment-challenge",
  title: "Every 402 carries a Payment challenge: id/realm/method/intent charge/expiry and the request's price",
  side: "response",
  severity: "major",
  basis: "What the service does 2-3; Authentication; D-payment-challenge",
  passive: true,
  needs: ["request-body"],
  check(ctx) {
    if (ctx.status !== 402 || !ctx.op) return [];
    const [p] = paymentChallenges(ctx.headers["www-authenticate"]);
    if (!p) return []; // payment-problem names a missing challenge
    const expires = Date.parse(p.expires ?? "");
    const at = ctx.exchange.at;
    const priced = ctx.op.pricing !== null && ctx.sentKnown;
    const price = priced ? requestPrice(ctx.contract.prices, ctx.op.operationId, ctx.sent) : undefined;
    return violations(this.id, [
      !(p.id && p.realm && p.method) && "challenge lacks id, realm or method",
      p.intent !== "charge" && 'intent is not "charge"',
      Number.isNaN(expires) && "challenge has no expires",
      at !== undefined && expires < at - 60_000 && `challenge expired on issue (${p.expires})`,
      priced && p.request.amount !== price && `request amount ${String(p.request.amount)} is not the price ${price}`,
      ctx.headers["cache-control"] !== "no-store" && "Cache-Control is not no-store",
    ]);
  },
};
