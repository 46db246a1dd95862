// The pay-per-request flow, asserted the same way against the mock and the reference (issue 16 "Done when"):
// an anonymous paid call gets 402; the SDK's client pays with the test method and gets 200 with a
// Payment-Receipt; replayed, expired, tampered and under-priced credentials are refused in the problem shape; a
// batch is priced per entry; nothing is charged to any account; the payment is recorded.
import { Challenge, Receipt } from "mppx";
import { describe, expect, it } from "vitest";
import type { Contract } from "../packages/contract/src/index.ts";
import { paymentChallenges, testCredential } from "../packages/contract/src/payment-test-method.ts";
import type { PaymentRecord } from "../packages/platform/src/payment-store.ts";
import { createPayingFetch } from "../packages/tools/src/client/paying-fetch.ts";

export interface PaymentTarget {
  url: string;
  contract: Contract;
  testKey: string;
  /** the HMAC secret the target was started with (lets a test forge an expired challenge the way the server would) */
  secret: string;
  /** the operation, a single body and a batch body of the paid call used */
  path: string;
  operationId: string;
  single: unknown;
  batch: unknown[];
  /** another operation of the same price */
  other: { path: string; body: unknown };
  /** a key holder's balance, to prove no account is charged */
  balance(): Promise<number>;
  payments(): Promise<PaymentRecord[]>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: asserted by the callers
  }
  return { status: res.status, headers: res.headers, body };
}

/** The challenge `c` with `changes`, its id the HMAC of `secretKey` (the server's own, or a stranger's). */
function reissue(c: Challenge.Challenge, secretKey: string, changes: { expires?: string } = {}): Challenge.Challenge {
  const { realm, method, intent, request, description, opaque, expires } = c;
  return Challenge.from({ realm, method, intent, request, description, opaque, expires, ...changes, secretKey });
}

export function describePaymentFlow(name: string, target: () => PaymentTarget) {
  describe(`pay per request with the Payment scheme: ${name}`, () => {
    const post = (t: PaymentTarget, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${t.url}${t.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }).then(answer);

    /** The spec's validators on the answer (status, body shape, required headers). */
    const conforms = (t: PaymentTarget, a: Answer) => {
      const ct = a.headers.get("content-type") ?? "";
      expect(t.contract.validators.checkResponse(t.operationId, a.status, ct, a.body)).toBeNull();
      expect(
        t.contract.validators.checkResponseHeaders(t.operationId, a.status, Object.fromEntries(a.headers)),
      ).toBeNull();
    };

    const challengeOf = (a: Answer) => {
      const [challenge] = paymentChallenges(a.headers.get("www-authenticate"));
      expect(challenge, "a Payment challenge").toBeDefined();
      return challenge;
    };

    const expectRefused = (t: PaymentTarget, a: Answer, code: string) => {
      expect(a.status).toBe(402);
      expect(a.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(a.body).toMatchObject({ ok: false, code, status: 402, title: expect.any(String) });
      expect(String(a.body.type)).toMatch(/^https:\/\/paymentauth\.org\/problems\//);
      expect(a.headers.get("payment-receipt")).toBeNull();
      // a refusal carries a fresh challenge, so the client can pay again
      expect(challengeOf(a).id).toBe(a.body.challengeId);
      conforms(t, a);
    };

    it("answers an anonymous paid call with 402: a Payment challenge for the operation's price, then Bearer", async () => {
      const t = target();
      const a = await post(t, t.single);
      expect(a.status).toBe(402);
      conforms(t, a);
      const c = challengeOf(a);
      const price = t.contract.prices.get(t.operationId)?.price;
      expect(c).toMatchObject({ method: "test", intent: "charge", realm: "127.0.0.1" });
      expect(c.request).toEqual({ amount: price, currency: "usd", recipient: "plumbline" });
      const expires = Date.parse(c.expires ?? "");
      expect(expires).toBeGreaterThan(Date.now());
      expect(expires).toBeLessThanOrEqual(Date.now() + 300_000);
      expect(a.headers.get("www-authenticate")).toMatch(/^Payment .*, Bearer resource_metadata="[^"]+"$/);
      expect(a.headers.get("cache-control")).toBe("no-store");
      expect(a.body).toMatchObject({
        ok: false,
        code: "PLB_PAYMENT_REQUIRED",
        type: "https://paymentauth.org/problems/payment-required",
        status: 402,
        challengeId: c.id,
      });
    });

    it("is paid by the SDK's client with the test method: 200, a Payment-Receipt, the payment recorded, no credits", async () => {
      const t = target();
      const before = await t.balance();
      const pay = createPayingFetch({ method: "test", key: t.testKey });
      const res = await pay(`${t.url}${t.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(t.single),
      });
      const a = await answer(res);
      expect(a.status).toBe(200);
      conforms(t, a);
      const receipt = Receipt.deserialize(a.headers.get("payment-receipt") ?? "");
      expect(receipt).toMatchObject({ method: "test", status: "success", reference: expect.stringMatching(/^rcpt_/) });
      const recorded = (await t.payments()).find((p) => p.receiptId === receipt.reference);
      expect(recorded).toMatchObject({
        operationId: t.operationId,
        method: "test",
        amount: t.contract.prices.get(t.operationId)?.price,
        capturedAmount: t.contract.prices.get(t.operationId)?.price,
        status: "captured",
        requestId: a.headers.get("x-request-id"),
        refundDue: "0",
      });
      expect(await t.balance()).toBe(before);
    });

    it("refuses a replayed credential, before doing the work again", async () => {
      const t = target();
      const c = challengeOf(await post(t, t.single));
      const credential = testCredential(t.testKey, c);
      expect((await post(t, t.single, { authorization: credential })).status).toBe(200);
      const count = (await t.payments()).length;
      expectRefused(t, await post(t, t.single, { authorization: credential }), "PLB_PAYMENT_REPLAYED");
      expect((await t.payments()).length).toBe(count);
    });

    it("refuses tampered credentials: a wrong signature, an altered amount, a made-up challenge, garbage", async () => {
      const t = target();
      const c = challengeOf(await post(t, t.single));
      const wrongKey = testCredential(`${t.testKey}-not`, c);
      expectRefused(t, await post(t, t.single, { authorization: wrongKey }), "PLB_PAYMENT_INVALID");
      const cheaper = testCredential(t.testKey, { ...c, request: { ...c.request, amount: "0.000001" } });
      expectRefused(t, await post(t, t.single, { authorization: cheaper }), "PLB_PAYMENT_INVALID");
      const madeUp = testCredential(t.testKey, reissue(c, "x".repeat(40)));
      expectRefused(t, await post(t, t.single, { authorization: madeUp }), "PLB_PAYMENT_INVALID");
      expectRefused(t, await post(t, t.single, { authorization: "Payment not-base64!" }), "PLB_PAYMENT_INVALID");
      // the untouched credential still pays: the refusals did not spend it
      expect((await post(t, t.single, { authorization: testCredential(t.testKey, c) })).status).toBe(200);
    });

    it("refuses a credential whose challenge has expired", async () => {
      const t = target();
      const c = challengeOf(await post(t, t.single));
      // the server's own HMAC over an expiry in the past: what a client holding a stale challenge presents
      const stale = reissue(c, t.secret, { expires: new Date(Date.now() - 1000).toISOString() });
      expect(Challenge.verify(stale, { secretKey: t.secret })).toBe(true);
      expectRefused(
        t,
        await post(t, t.single, { authorization: testCredential(t.testKey, stale) }),
        "PLB_PAYMENT_EXPIRED",
      );
    });

    it("prices a batch per entry and refuses an under-priced credential before any work", async () => {
      const t = target();
      const n = t.batch.length;
      const single = challengeOf(await post(t, t.single));
      const count = (await t.payments()).length;
      expectRefused(
        t,
        await post(t, t.batch, { authorization: testCredential(t.testKey, single) }),
        "PLB_PAYMENT_AMOUNT",
      );
      expect((await t.payments()).length).toBe(count);
      const batch = challengeOf(await post(t, t.batch));
      const price = Number(t.contract.prices.get(t.operationId)?.price);
      expect(Number(batch.request.amount)).toBeCloseTo(price * n, 9);
      const before = await t.balance();
      const paid = await post(t, t.batch, { authorization: testCredential(t.testKey, batch) });
      expect(paid.status).toBe(200);
      conforms(t, paid);
      expect(paid.headers.get("payment-receipt")).toBeTruthy();
      const [latest] = await t.payments();
      expect(latest).toMatchObject({ amount: batch.request.amount, challengeId: batch.id, status: "captured" });
      expect(await t.balance()).toBe(before);
    });

    it("binds a credential to its operation: another operation of the same price refuses it", async () => {
      const t = target();
      const c = challengeOf(await post(t, t.single));
      const elsewhere = await fetch(`${t.url}${t.other.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: testCredential(t.testKey, c) },
        body: JSON.stringify(t.other.body),
      }).then(answer);
      expect(elsewhere.status).toBe(402);
      expect(elsewhere.body.code).toBe("PLB_PAYMENT_INVALID");
      expect(String(elsewhere.body.message)).toMatch(/opaque does not match/);
      // and it still pays the operation it was issued for
      expect((await post(t, t.single, { authorization: testCredential(t.testKey, c) })).status).toBe(200);
    });
  });
}
