// Pay per request on the mock (issue 16): the shared flow, plus the mock's steering of refusals (Prefer:
// payment=refused|expired|replayed) and the payments in the admin journal.

import { paymentChallenges, testCredential } from "@plumbline-kit/contract/payment-test-method";
import { createPayingFetch } from "@plumbline-kit/tools/client/paying-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describePaymentFlow } from "../../../../test-support/payment-flow-suite.ts";
import { type RunningMock, startMock } from "../start-mock.ts";

const TEST_KEY = "mock-payment-test-key";
const SECRET = "s".repeat(43);
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    keys: [{ key: "k", credits: 100 }],
    paymentTestKey: TEST_KEY,
    paymentSecret: SECRET,
    rateLimits: { perAccount: 0 },
  });
});
afterAll(() => mock?.close());

const balance = async () =>
  ((await (await fetch(`${mock.url}/usage`, { headers: { authorization: "Bearer k" } })).json()) as { usage: number })
    .usage;

describePaymentFlow("mock", () => ({
  url: mock.url,
  contract: mock.contract,
  testKey: TEST_KEY,
  secret: SECRET,
  path: "/search",
  operationId: "search",
  single: { query: "pay per call" },
  batch: [{ query: "a" }, { query: "b" }, { query: "c" }],
  other: { path: "/news", body: { query: "pay per call" } },
  balance,
  payments: () => mock.admin.payments.list(),
}));

describe("the mock's payment steering and journal", () => {
  const search = (headers: Record<string, string>, body: unknown = { query: "steer" }) =>
    fetch(`${mock.url}/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const freshCredential = async () => {
    const [c] = paymentChallenges((await search({})).headers.get("www-authenticate"));
    return testCredential(TEST_KEY, c);
  };

  it.each([
    ["refused", "PLB_PAYMENT_INVALID", "https://paymentauth.org/problems/verification-failed"],
    ["expired", "PLB_PAYMENT_EXPIRED", "https://paymentauth.org/problems/payment-expired"],
    ["replayed", "PLB_PAYMENT_REPLAYED", "https://paymentauth.org/problems/invalid-challenge"],
  ])("Prefer: payment=%s refuses a good credential as %s, without spending it", async (fault, code, type) => {
    const credential = await freshCredential();
    const r = await search({ authorization: credential, prefer: `payment=${fault}` });
    expect(r.status).toBe(402);
    expect(await r.json()).toMatchObject({ code, type, status: 402 });
    expect(paymentChallenges(r.headers.get("www-authenticate"))).toHaveLength(1);
    // the steered refusal did not spend it: the same credential pays without the preference
    expect((await search({ authorization: credential })).status).toBe(200);
  });

  it("shows paid calls in the admin journal with their method, amount and receipt", async () => {
    const pay = createPayingFetch({ method: "test", key: TEST_KEY });
    const res = await pay(`${mock.url}/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "journal" }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    const { entries } = (await (await fetch(`${mock.url}/__mock/journal?operationId=search`)).json()) as {
      entries: Array<{ requestId: string; status: number; payment?: Record<string, unknown> }>;
    };
    const entry = entries.find((e) => e.requestId === id);
    expect(entry?.payment).toMatchObject({ method: "test", amount: "0.003", currency: "usd", status: "captured" });
    const { payments } = (await (await fetch(`${mock.url}/__mock/payments`)).json()) as {
      payments: Array<{ requestId: string }>;
    };
    expect(payments[0].requestId).toBe(id);
  });

  it("keeps only the succeeded entries' price of a batch whose entries fail (D-payment-charging)", async () => {
    const body = [{ query: "a" }, { query: "b" }, { query: "c" }];
    const [c] = paymentChallenges((await search({}, body)).headers.get("www-authenticate"));
    const r = await search({ authorization: testCredential(TEST_KEY, c), prefer: 'fail-entries="1"' }, body);
    expect(r.status).toBe(200);
    expect(r.headers.get("payment-receipt")).toBeTruthy();
    const [latest] = await mock.admin.payments.list();
    expect(latest).toMatchObject({
      amount: "0.009",
      capturedAmount: "0.006",
      status: "partially_captured",
      refundDue: "0",
    });
  });

  it("offers the same Payment challenge to a key holder whose credits ran out", async () => {
    await mock.admin.createAccount({ key: "broke", credits: 0 });
    const r = await search({ authorization: "Bearer broke" });
    expect(r.status).toBe(402);
    expect(await r.json()).toMatchObject({ code: "PLB_INSUFFICIENT_CREDITS" });
    const [c] = paymentChallenges(r.headers.get("www-authenticate"));
    expect(c).toMatchObject({ method: "test", request: { amount: "0.003" } });
    expect((await search({ authorization: testCredential(TEST_KEY, c) })).status).toBe(200);
  });
});

describe("a deepcrawl paid per request (D-status-auth)", () => {
  it("is read by its id alone, with or without a key, while a key's task needs its key", async () => {
    const pay = createPayingFetch({ method: "test", key: TEST_KEY });
    const started = await pay(`${mock.url}/deepcrawl`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com", type: "sitemap" }),
    });
    expect(started.status).toBe(202);
    const { taskId } = (await started.json()) as { taskId: string };
    const anonymous = await fetch(`${mock.url}/deepcrawl/status/${taskId}`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toMatchObject({ taskId });
    const withKey = await fetch(`${mock.url}/deepcrawl/status/${taskId}`, { headers: { authorization: "Bearer k" } });
    expect(withKey.status).toBe(200);

    const keyed = await fetch(`${mock.url}/deepcrawl`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: JSON.stringify({ url: "https://example.com", type: "sitemap" }),
    });
    const keyedId = ((await keyed.json()) as { taskId: string }).taskId;
    // without a credential, a key's task and an unknown id answer alike: 401, nothing revealed
    for (const id of [keyedId, `dc_${"0".repeat(32)}`]) {
      const r = await fetch(`${mock.url}/deepcrawl/status/${id}`);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ code: "PLB_MISSING_CREDENTIAL" });
    }
  });
});
