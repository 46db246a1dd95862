// Where pay-per-request leaves its traces (D-payment-charging): the used-credential claims that make a
// credential single use, and the payments received. The reference keeps both in its database
// (reference/store/sql-payments.ts), the mock in memory (below).

/** What a payment became once its call ended (D-payment-charging). */
export type PaymentStatus =
  /** the call completed: the whole amount is kept */
  | "captured"
  /** a batch with failed entries: only the succeeded entries' price is kept */
  | "partially_captured"
  /** the call failed before producing anything chargeable: nothing is kept */
  | "voided";

export interface PaymentRecord {
  id: string;
  at: string;
  operationId: string;
  requestId: string;
  /** the payment method (`test`, `tempo`, `stripe`) */
  method: string;
  /** the amount the credential paid, a decimal string in `currency` */
  amount: string;
  /** the part of it kept (D-charging: failed calls and failed batch entries cost nothing) */
  capturedAmount: string;
  currency: string;
  /** the receipt's reference (the `Payment-Receipt` the client got) */
  receiptId: string;
  challengeId: string;
  status: PaymentStatus;
  /**
   * the amount to give back: a method that settles when the credential is verified (every production method)
   * cannot leave a failed call's payment uncaptured, so the difference is owed to the payer
   */
  refundDue: string;
}

export interface PaymentStore {
  /** Records the first use of a credential (its challenge id); false when it was used before. Atomic. */
  claim(challengeId: string, expiresAtMs: number): Promise<boolean>;
  record(payment: PaymentRecord): Promise<void>;
  /** Newest first. */
  list(filter?: { limit?: number; operationId?: string }): Promise<PaymentRecord[]>;
}

export function createMemoryPaymentStore(capacity = 10_000): PaymentStore & { clear(): void } {
  const claims = new Map<string, number>();
  let payments: PaymentRecord[] = [];
  return {
    async claim(challengeId, expiresAtMs) {
      const now = Date.now();
      if (claims.size > capacity) for (const [id, exp] of claims) if (exp < now) claims.delete(id);
      if (claims.has(challengeId)) return false;
      claims.set(challengeId, expiresAtMs);
      return true;
    },
    async record(p) {
      payments.push(p);
      if (payments.length > capacity) payments = payments.slice(-capacity);
    },
    async list(filter = {}) {
      const matching = filter.operationId ? payments.filter((p) => p.operationId === filter.operationId) : payments;
      return [...matching].reverse().slice(0, filter.limit ?? matching.length);
    },
    clear() {
      claims.clear();
      payments = [];
    },
  };
}
