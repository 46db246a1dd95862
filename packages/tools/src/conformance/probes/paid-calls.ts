// Shared probe: the Payment scheme as a paying client meets it (D-payment-challenge): an anonymous call's 402,
// the same call paid with the local test method, the credential replayed, and a single call's credential
// presented for a batch. One paid operation is used: crawl when in scope (the fixture site serves it), else the
// first other paid operation in scope; deepcrawl is left out (each paid start is a task). No credits are spent.
import { baseBody } from "@plumbline-kit/contract/bounds";
import { type Balance, balance } from "../check-helpers.ts";
import type { Exchange, Probe, RunContext } from "../types.ts";
import { withReachableUrls } from "./target-urls.ts";

export interface PaidCalls {
  operationId: string;
  single: unknown;
  batch: unknown[];
  /** the anonymous call's 402 */
  challenge: Exchange;
  paid: Exchange;
  replayed: Exchange;
  /** the anonymous batch call's 402 (its challenge prices every entry) */
  batchChallenge: Exchange;
  /** the batch presented with a credential for a single call */
  underpaid: Exchange;
  before: Balance;
  after: Balance;
}

function paidOperation(ctx: RunContext) {
  const candidates = ctx.contract.contractOperations.filter(
    (o) => o.pricing && o.operationId !== "deepcrawl" && ctx.scope.has(o.operationId),
  );
  return candidates.find((o) => o.operationId === "crawl") ?? candidates[0];
}

export const paidCallsProbe: Probe<PaidCalls | null> = {
  id: "paid-calls",
  usesFixtureSite: true,
  cost: () => 0,
  async run(ctx) {
    const op = paidOperation(ctx);
    const key = ctx.options.paymentKey;
    if (!op || !key) return null;
    const by = "probe:paid-calls";
    // loaded only when payments are checked: the SDK is a heavy import for every other run
    const { paymentChallenges, testCredential } = await import("@plumbline-kit/contract/payment-test-method");
    const single = await withReachableUrls(ctx, baseBody(op));
    const batch = [single, single];
    const call = (body: unknown, credential?: string) =>
      ctx.http.call(by, op.method.toUpperCase(), op.path, {
        body,
        auth: "none",
        headers: credential ? { authorization: credential } : {},
      });
    const credentialFor = (ex: Exchange) => {
      const [challenge] = paymentChallenges(ex.response?.headers["www-authenticate"]).filter(
        (c) => c.method === "test",
      );
      return challenge ? testCredential(key, challenge) : "Payment (no test challenge offered)";
    };
    const before = await balance(ctx, by);
    const challenge = await call(single);
    const credential = credentialFor(challenge);
    const paid = await call(single, credential);
    const replayed = await call(single, credential);
    const batchChallenge = await call(batch);
    const underpaid = await call(batch, credentialFor(await call(single)));
    const after = await balance(ctx, by);
    return {
      operationId: op.operationId,
      single,
      batch,
      challenge,
      paid,
      replayed,
      batchChallenge,
      underpaid,
      before,
      after,
    };
  },
};
