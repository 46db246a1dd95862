// Pay per request with the Payment scheme, as a paying client meets it (interface-spec "What the service does"
// 2-3; D-payment-challenge, D-payment-charging). They need the target's test payment key
// (--payment-method test --payment-key KEY) and are skipped with a warning without it.
import type { Contract } from "@plumbline-kit/contract";
import { judgeExchange } from "@plumbline-kit/contract/checks/index";
import { paymentChallenges } from "@plumbline-kit/contract/payment-challenges";
import { judgeAnswer, judgedExchange } from "../answer-judge.ts";
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import { type PaidCalls, paidCallsProbe } from "../probes/paid-calls.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";

const paidOperations = (c: Contract) =>
  c.prices
    .paid()
    .map((p) => p.operationId)
    .filter((id) => id !== "deepcrawl");

async function calls(ctx: RunContext): Promise<PaidCalls | { skip: string; skipKind: "not-selected" }> {
  const calls = await ctx.probe(paidCallsProbe);
  return calls ?? { skip: "no paid operation other than deepcrawl is in scope", skipKind: "not-selected" };
}

/**
 * The problems of a 402 refusal: the code this refusal must carry, and the payment problem as the registry judges
 * every 402 (spec/checks/payment-rules.ts: problem+json, paymentauth type, a fresh challenge, no receipt).
 */
function refusalProblems(contract: Contract, ex: Exchange, code: string): string[] {
  const body = json(ex) ?? {};
  return [
    status(ex) !== 402 && `status ${status(ex)}, not 402`,
    body.code !== code && `code ${String(body.code)}, not ${code}`,
    ...judgeAnswer(contract, ex, ["payment-problem", "response-content-type", "error-body-members"]).map(
      (v) => v.message,
    ),
  ].filter((x): x is string => typeof x === "string");
}

const challengeParameters: CheckDefinition = {
  id: "payment-challenge-parameters",
  title: "The 402 Payment challenge names the test method, the request's price, the host as realm and an expiry",
  severity: "major",
  section: "What the service does 2-3",
  basis: { kind: "decision", decision: "D-payment-challenge" },
  preconditions: ["payment-key"],
  operations: paidOperations,
  probes: [paidCallsProbe],
  async run(ctx) {
    const c = await calls(ctx);
    if ("skip" in c) return { failures: [], skip: c.skip, skipKind: c.skipKind };
    const failures: Failure[] = [];
    const host = new URL(ctx.options.target).hostname;
    for (const [ex, body] of [
      [c.challenge, c.single],
      [c.batchChallenge, c.batch],
    ] as const) {
      const test = paymentChallenges(ex.response?.headers["www-authenticate"]).find((x) => x.method === "test");
      // what the challenges owe is the registry's (payment-challenge); the suite adds the host it addressed (the
      // realm) and that the test method it pays with is offered
      const problems = [
        status(ex) !== 402 && `status ${status(ex)}, not 402`,
        !test && "no Payment challenge for the test method",
        ...(status(ex) === 402
          ? judgeExchange(ctx.contract, { ...judgedExchange(ex), host }, { rules: ["payment-challenge"] }).map(
              (v) => v.message,
            )
          : []),
      ].filter((x): x is string => typeof x === "string");
      for (const p of problems)
        failures.push(
          failure(`${Array.isArray(body) ? "batch" : "single"} ${c.operationId}: ${p}`, [ex], "", describe(ex)),
        );
    }
    return failures.length ? { failures } : ok([`${c.operationId} challenged at its price, per entry for a batch`]);
  },
};

const receipt: CheckDefinition = {
  id: "payment-receipt",
  title: "A call paid with the test method succeeds with a Payment-Receipt and charges no account's credits",
  severity: "critical",
  section: "What the service does 2-3",
  basis: { kind: "decision", decision: "D-payment-charging" },
  preconditions: ["payment-key"],
  operations: paidOperations,
  probes: [paidCallsProbe],
  async run(ctx) {
    const c = await calls(ctx);
    if ("skip" in c) return { failures: [], skip: c.skip, skipKind: c.skipKind };
    const s = status(c.paid) ?? 0;
    if (s < 200 || s >= 300)
      return { failures: [failure("the paid call did not succeed", [c.paid], "2xx", describe(c.paid))] };
    const header = c.paid.response?.headers["payment-receipt"];
    let parsed: { status?: string; method?: string; reference?: string } | null = null;
    try {
      // the Payment-Receipt is base64url JSON (D-payment-challenge)
      parsed = header ? JSON.parse(Buffer.from(header, "base64url").toString("utf8")) : null;
    } catch {
      // reported below
    }
    const failures: Failure[] = [];
    if (parsed?.status !== "success" || parsed.method !== "test")
      failures.push(
        failure(
          "no valid Payment-Receipt for the test method",
          [c.paid],
          "method test, status success",
          header ?? "(none)",
        ),
      );
    const spent = c.before.value === null || c.after.value === null ? null : c.before.value - c.after.value;
    if (spent !== 0)
      failures.push(
        failure("the paid calls changed the account's balance", [c.before.exchange, c.after.exchange], "0", `${spent}`),
      );
    return failures.length ? { failures } : ok([`receipt ${parsed?.reference}`]);
  },
};

const replay: CheckDefinition = {
  id: "payment-replay-refused",
  title: "A Payment credential presented twice is refused the second time with a 402 problem",
  severity: "critical",
  section: "What the service does 2-3",
  basis: { kind: "decision", decision: "D-payment-challenge" },
  preconditions: ["payment-key"],
  operations: paidOperations,
  probes: [paidCallsProbe],
  async run(ctx) {
    const c = await calls(ctx);
    if ("skip" in c) return { failures: [], skip: c.skip, skipKind: c.skipKind };
    const problems = refusalProblems(ctx.contract, c.replayed, "PLB_PAYMENT_REPLAYED");
    return {
      failures: problems.map((p) =>
        failure(`replayed credential: ${p}`, [c.paid, c.replayed], "402 PLB_PAYMENT_REPLAYED", describe(c.replayed)),
      ),
    };
  },
};

const amount: CheckDefinition = {
  id: "payment-amount-refused",
  title: "A credential for another amount (a single call's, on a batch) is refused with a 402 problem",
  severity: "critical",
  section: "What the service does 2-3",
  basis: { kind: "decision", decision: "D-payment-challenge" },
  preconditions: ["payment-key"],
  operations: paidOperations,
  probes: [paidCallsProbe],
  async run(ctx) {
    const c = await calls(ctx);
    if ("skip" in c) return { failures: [], skip: c.skip, skipKind: c.skipKind };
    const problems = refusalProblems(ctx.contract, c.underpaid, "PLB_PAYMENT_AMOUNT");
    return {
      failures: problems.map((p) =>
        failure(`under-priced credential: ${p}`, [c.underpaid], "402 PLB_PAYMENT_AMOUNT", describe(c.underpaid)),
      ),
    };
  },
};

export const PAYMENT_CHECKS = [challengeParameters, receipt, replay, amount];
