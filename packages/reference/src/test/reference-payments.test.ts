// Pay per request on the reference (issue 16), on SQLite and PostgreSQL: the shared flow with paid crawls of a
// loopback fixture page, a failed call after payment (voided, no receipt: D-payment-charging), the challenge
// secret kept in the database across restarts, and `plumbline reference payments list`.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { paymentChallenges, testCredential } from "@plumbline-kit/contract/payment-test-method";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../../../../test-support/cli-process.ts";
import { describePaymentFlow } from "../../../../test-support/payment-flow-suite.ts";
import { freshPostgresSchema } from "../../../../test-support/postgres-schema.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { ARTICLE_HTML } from "./fixture-pages.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";

const PG = process.env.PLUMBLINE_TEST_DATABASE_URL;
const TEST_KEY = "reference-payment-test-key";
const SECRET = "r".repeat(43);
let site: FixtureSite;
let contract: Contract;
const dirs: string[] = [];

beforeAll(async () => {
  contract = await loadContract();
  site = await serveSite({ "/article": { body: ARTICLE_HTML }, "/second": { body: ARTICLE_HTML } });
});
afterAll(async () => {
  await site?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(kind === "postgres" && !PG)(`the reference on ${kind}`, () => {
    let ref: RunningReference;
    let dir = "";
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "plumbline-ref-pay-"));
      dirs.push(dir);
      // a clean slate of its own: other files use the same test database at the same time
      const databaseUrl =
        kind === "postgres" ? await freshPostgresSchema(PG as string, "reference_payments") : undefined;
      ref = await startReference({
        port: 0,
        dataDir: dir,
        databaseUrl,
        allowPrivateNetwork: true,
        keys: [{ key: "k-pay", credits: 50 }],
        rateLimits: { perAccount: 0 },
        paymentTestKey: TEST_KEY,
        paymentSecret: SECRET,
        contract,
        // one parse thread: a batch's two pages would start a second worker, and its load costs ~1 CPU-s
        parsing: { threads: 1 },
      });
    }, 60_000);
    afterAll(() => ref?.close());

    describePaymentFlow(`reference (${kind})`, () => ({
      url: ref.url,
      contract,
      testKey: TEST_KEY,
      secret: SECRET,
      path: "/crawl",
      operationId: "crawl",
      single: { url: `${site.url}/article`, enableFallback: false },
      batch: [
        { url: `${site.url}/article`, enableFallback: false },
        { url: `${site.url}/second`, enableFallback: false },
      ],
      other: { path: "/sitemap", body: { url: `${site.url}/article` } },
      balance: async () =>
        (
          (await (await fetch(`${ref.url}/usage`, { headers: { authorization: "Bearer k-pay" } })).json()) as {
            usage: number;
          }
        ).usage,
      payments: () => ref.payments.list(),
    }));

    it("records a call that failed after payment as voided, with no receipt (D-payment-charging)", async () => {
      const body = JSON.stringify({ url: "http://127.0.0.1:9/nothing-listens-here", enableFallback: false });
      const headers = { "content-type": "application/json" };
      const first = await fetch(`${ref.url}/crawl`, { method: "POST", headers, body });
      const [c] = paymentChallenges(first.headers.get("www-authenticate"));
      const r = await fetch(`${ref.url}/crawl`, {
        method: "POST",
        headers: { ...headers, authorization: testCredential(TEST_KEY, c) },
        body,
      });
      expect(r.status).toBe(502);
      expect(r.headers.get("payment-receipt")).toBeNull();
      const [latest] = await ref.payments.list({ limit: 1 });
      expect(latest).toMatchObject({
        challengeId: c.id,
        amount: "0.003",
        capturedAmount: "0",
        status: "voided",
        refundDue: "0",
        requestId: r.headers.get("x-request-id"),
      });
    });
  });
}

describe("the reference's challenge secret and payments listing", () => {
  it("keeps the challenge secret in the database: a challenge survives a restart; the CLI lists the payment", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-pay-cli-"));
    dirs.push(dir);
    const options = { port: 0, dataDir: dir, allowPrivateNetwork: true, paymentTestKey: TEST_KEY };
    const body = JSON.stringify({ url: `${site.url}/article`, enableFallback: false });
    const headers = { "content-type": "application/json" };
    let ref = await startReference(options);
    const [c] = paymentChallenges(
      (await fetch(`${ref.url}/crawl`, { method: "POST", headers, body })).headers.get("www-authenticate"),
    );
    await ref.close();
    ref = await startReference(options);
    try {
      const paid = await fetch(`${ref.url}/crawl`, {
        method: "POST",
        headers: { ...headers, authorization: testCredential(TEST_KEY, c) },
        body,
      });
      expect(paid.status).toBe(200);
      const requestId = paid.headers.get("x-request-id") ?? "";
      const { stdout } = await promisify(execFile)(process.execPath, [
        BIN,
        "reference",
        "payments",
        "list",
        "--data-dir",
        dir,
      ]);
      expect(stdout).toContain(`crawl  0.003 usd  test  captured`);
      expect(stdout).toContain(`request ${requestId}`);
    } finally {
      await ref.close();
    }
  }, 60_000);

  it("makes and reports a test key when no payment method is configured", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-pay-default-"));
    dirs.push(dir);
    const ref = await startReference({ port: 0, dataDir: dir });
    try {
      expect(ref.paymentTestKey).toMatch(/^[\w-]{20,}$/);
      const r = await fetch(`${ref.url}/sitemap`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(r.status).toBe(402);
      expect(paymentChallenges(r.headers.get("www-authenticate"))[0]?.method).toBe("test");
    } finally {
      await ref.close();
    }
  }, 60_000);
});
