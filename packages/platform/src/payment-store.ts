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

/**
 * In memory (the mock): the newest `capacity` payments, and the claims of credentials whose challenge has not
 * expired (a claim must outlive its challenge to refuse a replay; expired ones are swept once the map has doubled
 * since the last sweep, so it holds about the challenges paid within one challenge lifetime).
 */
export function createMemoryPaymentStore(
  capacity = 10_000,
): PaymentStore & { clear(): void; stats(): { payments: number; capacity: number; claims: number } } {
  const claims = new Map<string, number>();
  let sweepAbove = capacity;
  let payments: PaymentRecord[] = [];
  const newest = () => (payments.length > capacity ? payments.slice(-capacity) : payments);
  return {
    async claim(challengeId, expiresAtMs) {
      if (claims.size > sweepAbove) {
        // the challenges' expiry is on real time (payment-gate.ts), so is their sweep
        const now = Date.now();
        for (const [id, exp] of claims) if (exp < now) claims.delete(id);
        sweepAbove = Math.max(capacity, claims.size * 2);
      }
      if (claims.has(challengeId)) return false;
      claims.set(challengeId, expiresAtMs);
      return true;
    },
    async record(p) {
      payments.push(p);
      // the oldest dropped a capacity at a time: amortised O(1) per payment, not a copy per payment
      if (payments.length >= 2 * capacity) payments = payments.slice(-capacity);
    },
    async list(filter = {}) {
      const kept = newest();
      const matching = filter.operationId ? kept.filter((p) => p.operationId === filter.operationId) : kept;
      return [...matching].reverse().slice(0, filter.limit ?? matching.length);
    },
    stats: () => ({ payments: newest().length, capacity, claims: claims.size }),
    clear() {
      claims.clear();
      sweepAbove = capacity;
      payments = [];
    },
  };
}
