// In-memory accounts, keys and a credit ledger for the mock, behind the platform's AccountStore interface.
// Single-threaded JavaScript makes each hold atomic, so concurrent calls never overdraw (D-charging).
import type { Account, AccountStore, Hold } from "@plumbline-kit/platform/stores";

export interface MockAccountInput {
  key: string;
  credits: number;
  credentialType?: "api_key" | "oauth";
  userId?: string | null;
  clientId?: string | null;
}

export interface LedgerEntry {
  accountId: string;
  operationId: string;
  requestId: string;
  credits: number;
  balanceAfter: number;
  at: number;
}

export interface MockAccountView {
  id: string;
  key: string;
  balance: number;
  credentialType: "api_key" | "oauth";
  userId: string | null;
  clientId: string | null;
  revoked: boolean;
  charged: number;
}

interface Row extends Account {
  key: string;
  balance: number;
  revoked: boolean;
  /** every credit ever charged, kept apart from the bounded ledger below */
  charged: number;
}

/** Ledger entries kept in memory: a long-running mock under load must not grow without bound. */
export const LEDGER_CAPACITY = 10_000;

export interface MemoryAccounts extends AccountStore {
  create(input: MockAccountInput): MockAccountView;
  setBalance(key: string, credits: number): MockAccountView | null;
  revoke(key: string): MockAccountView | null;
  list(): MockAccountView[];
  ledger(key?: string): LedgerEntry[];
  clear(): void;
}

export function createMemoryAccounts(now: () => number): MemoryAccounts {
  const byKey = new Map<string, Row>();
  const byId = new Map<string, Row>();
  let ledger: LedgerEntry[] = [];
  let next = 1;

  const view = (r: Row): MockAccountView => ({
    id: r.id,
    key: r.key,
    balance: r.balance,
    credentialType: r.credentialType,
    userId: r.userId,
    clientId: r.clientId,
    revoked: r.revoked,
    charged: r.charged,
  });

  return {
    // authenticate, hold and settle answer at once, not with a promise (stores.ts: no microtask turn per call)
    authenticate(credential) {
      const r = byKey.get(credential);
      return r && !r.revoked
        ? { id: r.id, userId: r.userId, credentialType: r.credentialType, clientId: r.clientId }
        : null;
    },
    async balance(accountId) {
      return byId.get(accountId)?.balance ?? 0;
    },
    hold(accountId, credits, meta): Hold | null {
      const r = byId.get(accountId);
      if (!r || r.balance < credits) return null;
      r.balance -= credits;
      // written out, not `{ accountId, credits, ...meta }`: a spread per call (issue 25, callgrind)
      return { accountId, credits, operationId: meta.operationId, requestId: meta.requestId };
    },
    settle(hold): undefined {
      const r = byId.get(hold.accountId);
      if (!r || hold.credits === 0) return;
      const { accountId, operationId, requestId, credits } = hold;
      r.charged += credits;
      ledger.push({ accountId, operationId, requestId, credits, balanceAfter: r.balance, at: now() });
      // drop the oldest half at once: amortised O(1) per entry, unlike a shift per push
      if (ledger.length > LEDGER_CAPACITY) ledger = ledger.slice(ledger.length - LEDGER_CAPACITY / 2);
    },
    async release(hold) {
      const r = byId.get(hold.accountId);
      if (r) r.balance += hold.credits;
    },
    async refund(accountId, requestId) {
      const r = byId.get(accountId);
      if (!r) return 0;
      let credits = 0;
      for (const e of ledger) {
        if (e.accountId !== accountId || e.requestId !== requestId) continue;
        if (e.operationId === "refund") return 0;
        credits += e.credits;
      }
      if (credits <= 0) return 0;
      r.balance += credits;
      r.charged -= credits;
      ledger.push({
        accountId,
        operationId: "refund",
        requestId,
        credits: -credits,
        balanceAfter: r.balance,
        at: now(),
      });
      return credits;
    },
    create(input) {
      const existing = byKey.get(input.key);
      const id = existing?.id ?? `acct_${String(next++).padStart(4, "0")}`;
      const row: Row = {
        id,
        key: input.key,
        balance: input.credits,
        credentialType: input.credentialType ?? "api_key",
        userId: input.userId === undefined ? `usr_${id.slice(5)}` : input.userId,
        clientId: input.clientId ?? (input.credentialType === "oauth" ? `client_${id.slice(5)}` : null),
        revoked: false,
        charged: 0,
      };
      byKey.set(row.key, row);
      byId.set(row.id, row);
      return view(row);
    },
    setBalance(key, credits) {
      const r = byKey.get(key);
      if (!r) return null;
      r.balance = credits;
      return view(r);
    },
    revoke(key) {
      const r = byKey.get(key);
      if (!r) return null;
      r.revoked = true;
      return view(r);
    },
    list: () => [...byKey.values()].map(view),
    ledger(key) {
      const id = key === undefined ? undefined : byKey.get(key)?.id;
      return key === undefined ? [...ledger] : ledger.filter((e) => e.accountId === id);
    },
    clear() {
      byKey.clear();
      byId.clear();
      ledger = [];
      next = 1;
    },
  };
}
