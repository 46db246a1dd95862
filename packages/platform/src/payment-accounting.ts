// What a paid call keeps of its payment (D-payment-charging, after D-charging): the price of what completed.
// The test method captures on completion, so a failed call's payment stays uncaptured (voided); a method that
// settled when its credential was verified (Tempo, Stripe) records the difference as owed back to the payer.
import { randomBytes } from "node:crypto";
import { subtractAmounts } from "@plumbline-kit/contract/payment-amount";
import type { AdmittedPayment } from "./payment-gate.ts";
import type { PaymentRecord, PaymentStore } from "./payment-store.ts";
import type { Account } from "./stores.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** the payment a call paid with the Payment scheme, once recorded (the mock's journal shows it) */
    payment: PaymentRecord | null;
  }
}

/** Who runs a paid call's work: the account of a key, or for a payment a stand-in owning its deepcrawl task. */
export function payerAccount(payment: AdmittedPayment): Account {
  return { id: `${PAYER_PREFIX}${payment.receiptId}`, userId: null, credentialType: "api_key", clientId: null };
}

const PAYER_PREFIX = "payment:";

/** True for the stand-in account of a call paid with the Payment scheme (no key, no account of its own). */
export function isPayerAccount(accountId: string): boolean {
  return accountId.startsWith(PAYER_PREFIX);
}

export function paymentRecord(
  payment: AdmittedPayment,
  call: { operationId: string; requestId: string; capturedAmount: string; nowMs: number },
): PaymentRecord {
  const { amount } = payment;
  const captured = call.capturedAmount;
  const uncaptured = subtractAmounts(amount, captured);
  const status = uncaptured === "0" ? "captured" : captured === "0" ? "voided" : "partially_captured";
  return {
    id: `pay_${randomBytes(10).toString("hex")}`,
    at: new Date(call.nowMs).toISOString(),
    operationId: call.operationId,
    requestId: call.requestId,
    method: payment.method,
    amount,
    capturedAmount: captured,
    currency: payment.currency,
    receiptId: payment.receiptId,
    challengeId: payment.challengeId,
    status,
    refundDue: payment.settlesOnVerify ? uncaptured : "0",
  };
}

export async function recordPayment(
  store: PaymentStore,
  payment: AdmittedPayment,
  call: { operationId: string; requestId: string; capturedAmount: string; nowMs: number },
): Promise<PaymentRecord> {
  const record = paymentRecord(payment, call);
  await store.record(record);
  return record;
}
