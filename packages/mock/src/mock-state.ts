// Everything the mock keeps, and the admin handle over it. The HTTP admin API (/__mock/…) and in-process callers
// (startMock().admin) use this one object, so both steer the same state.
import { randomBytes } from "node:crypto";
import type { ErrorCode } from "@plumbline-kit/contract";
import { refundFailedTask } from "@plumbline-kit/platform/deepcrawl-service";
import { createMemoryPaymentStore, type PaymentStore } from "@plumbline-kit/platform/payment-store";
import {
  type AccountStore,
  createMemoryFeedbackStore,
  createMemoryRateLimitStore,
  type FeedbackStore,
} from "@plumbline-kit/platform/stores";
import {
  createDeepcrawlSimulator,
  type DeepcrawlScenario,
  type DeepcrawlSimulator,
  type DeepcrawlSteps,
} from "./deepcrawl-simulator.ts";
import type { SyntheticEngineOptions } from "./engines/index.ts";
import { createSyntheticSiteCrawler } from "./engines/index.ts";
import { createFaultRules, type FaultRules } from "./fault-rules.ts";
import {
  createMemoryAccounts,
  LEDGER_CAPACITY,
  type MemoryAccounts,
  type MockAccountInput,
  type MockAccountView,
} from "./memory-accounts.ts";
import { createOAuthAuthority, type OAuthAuthority, withOAuthTokens } from "./oauth-authority.ts";
import type { Replay, ReplayView } from "./replay/replay.ts";
import { createRequestJournal, type RequestJournal } from "./request-journal.ts";
import { codeForStatus } from "./steered-response.ts";
import { type ClockMode, createVirtualClock, type VirtualClock } from "./virtual-clock.ts";

export interface BatchFailureRule {
  /** an operationId, or "*" */
  operationId: string;
  entries: number[];
  statusCode: number;
}

export interface MockStateOptions extends Omit<SyntheticEngineOptions, "now"> {
  keys: MockAccountInput[];
  clock: ClockMode;
  startTime?: number;
  deepcrawlSteps?: Partial<DeepcrawlSteps>;
  /** ms a finished deepcrawl task and its zip are kept on the mock clock */
  deepcrawlRetentionMs?: number;
  /** finished deepcrawl tasks kept at most (the oldest finished dropped first) */
  deepcrawlMaxTasks?: number;
  /** entries the request journal keeps (the newest) */
  journalSize?: number;
  /** recorded answers the mock replays (mock/replay/) */
  replay?: Replay | null;
}

/** One store's count against its bound (`max`: null where the store is bounded otherwise, said in `note`). */
export interface StoreCount {
  count: number;
  max: number | null;
  [detail: string]: unknown;
}

/** What the mock holds, store by store, and each one's bound (GET /__mock/stats; docs/mock.md). */
export interface MockStats {
  deepcrawlTasks: StoreCount;
  journal: StoreCount;
  cache: StoreCount;
  rateLimitWindows: StoreCount;
  payments: StoreCount;
  paymentClaims: StoreCount;
  /** reports kept by POST /feedback (the live contract) */
  feedback: StoreCount;
  ledger: StoreCount;
  accounts: StoreCount;
  oauthClients: StoreCount;
  oauthCodes: StoreCount;
  oauthAccessTokens: StoreCount;
  oauthRefreshTokens: StoreCount;
  replayUnmatched: StoreCount | null;
  faultRules: StoreCount;
}

/** What the memoized engines report (start-mock.ts builds them after the state). */
export type CacheStats = () => { entries: number; bytes: number; maxEntries: number; maxBytes: number };

export interface MockAdmin {
  reset(): void;
  createAccount(input: Partial<MockAccountInput> & { credits: number }): MockAccountView;
  setBalance(key: string, credits: number): MockAccountView | null;
  revokeAccount(key: string): MockAccountView | null;
  accounts(): MockAccountView[];
  clock(): { mode: ClockMode; now: string; epochMs: number };
  advanceClock(ms: number): { mode: ClockMode; now: string; epochMs: number };
  setClock(epochMs: number): { mode: ClockMode; now: string; epochMs: number };
  journal: RequestJournal;
  /** payments received with the Payment scheme (D-payment-charging), newest first */
  payments: PaymentStore;
  /** reports POST /feedback kept (the live contract, D-feedback), oldest first; `failNext` makes the next stores
   * fail (answered 503, nothing kept) */
  feedback: FeedbackStore & { failNext(times: number): void };
  faults: FaultRules;
  batchFailures: { set(rule: BatchFailureRule | null): void; get(): BatchFailureRule | null };
  deepcrawl: Pick<DeepcrawlSimulator, "setSteps" | "setNextScenario" | "list" | "steps">;
  /** the mock's authorization server: which account authorize() grants, token lifetimes (mock clock) */
  oauth: Pick<OAuthAuthority, "settings" | "configure">;
  /** every store's count and bound: what a long-running mock holds */
  stats(): MockStats;
  /** the replayed recordings: what was loaded, each answer and how often it was served, unmatched requests; null
   * when the mock replays nothing */
  replay(): ReplayView | null;
}

export interface MockState {
  clock: VirtualClock;
  accounts: MemoryAccounts;
  /** what the API authenticates with: the accounts' API keys and the authorization server's access tokens */
  apiAccounts: AccountStore;
  oauth: OAuthAuthority;
  rateLimitStore: ReturnType<typeof createMemoryRateLimitStore>;
  deepcrawl: DeepcrawlSimulator;
  journal: RequestJournal;
  payments: PaymentStore;
  feedback: MockAdmin["feedback"];
  faults: FaultRules;
  admin: MockAdmin;
  /** the code a batch entry is failed with by the admin rule, or null */
  batchFailure(operationId: string, index: number): ErrorCode | null;
  /** where the stats read the engines' memo from */
  setCacheStats(stats: CacheStats): void;
}

/** feedback reports the mock keeps, the newest (D-feedback) */
export const FEEDBACK_CAPACITY = 10_000;

export function createMockState(o: MockStateOptions): MockState {
  const start = o.startTime ?? Date.now();
  const clock = createVirtualClock(o.clock, start);
  const accounts = createMemoryAccounts(() => clock.now());
  const rateLimitStore = createMemoryRateLimitStore();
  const oauth = createOAuthAuthority(accounts, () => clock.now());
  const deepcrawl = createDeepcrawlSimulator({
    clock,
    crawler: createSyntheticSiteCrawler({ contract: o.contract, now: () => new Date(clock.now()) }),
    steps: o.deepcrawlSteps,
    // a task that ends failed gives its charge back, as on the reference (D-charging)
    onFailed: refundFailedTask(accounts, (m, err) => console.error(m, err ?? "")),
    retentionMs: o.deepcrawlRetentionMs,
    maxTasks: o.deepcrawlMaxTasks,
  });
  const journal = createRequestJournal(o.journalSize);
  const payments = createMemoryPaymentStore();
  const feedbackReports = createMemoryFeedbackStore(FEEDBACK_CAPACITY);
  let feedbackFailures = 0;
  const feedback: MockAdmin["feedback"] = {
    async add(report) {
      if (feedbackFailures > 0) {
        feedbackFailures--;
        throw new Error("the feedback store is failing (steered through the admin API)");
      }
      await feedbackReports.add(report);
    },
    list: () => feedbackReports.list(),
    failNext(times) {
      feedbackFailures = Math.max(0, times);
    },
  };
  const faults = createFaultRules();
  let batchRule: BatchFailureRule | null = null;
  let cacheStats: CacheStats = () => ({ entries: 0, bytes: 0, maxEntries: 0, maxBytes: 0 });
  const seedAccounts = () => {
    for (const k of o.keys) accounts.create(k);
  };
  seedAccounts();
  const clockView = () => ({ mode: clock.mode, now: new Date(clock.now()).toISOString(), epochMs: clock.now() });

  const admin: MockAdmin = {
    reset() {
      accounts.clear();
      seedAccounts();
      rateLimitStore.clear();
      deepcrawl.clear();
      deepcrawl.setSteps({ ...o.deepcrawlSteps });
      journal.clear();
      payments.clear();
      feedbackReports.clear();
      feedbackFailures = 0;
      faults.clear();
      batchRule = null;
      oauth.clear();
      o.replay?.reset();
      if (clock.mode === "manual") clock.set(start);
    },
    createAccount(input) {
      return accounts.create({ ...input, key: input.key ?? `mock_${randomBytes(12).toString("hex")}` });
    },
    setBalance: (key, credits) => accounts.setBalance(key, credits),
    revokeAccount: (key) => accounts.revoke(key),
    accounts: () => accounts.list(),
    clock: clockView,
    advanceClock(ms) {
      clock.advance(ms);
      return clockView();
    },
    setClock(ms) {
      clock.set(ms);
      return clockView();
    },
    journal,
    payments,
    feedback,
    faults,
    batchFailures: {
      set(rule) {
        batchRule = rule;
      },
      get: () => batchRule,
    },
    deepcrawl,
    oauth,
    replay: () => o.replay?.view() ?? null,
    stats(): MockStats {
      const dc = deepcrawl.stats();
      const j = journal.stats();
      const c = cacheStats();
      const p = payments.stats();
      const oa = oauth.stats();
      const r = o.replay?.stats();
      return {
        deepcrawlTasks: {
          count: dc.tasks,
          // finished tasks are capped; running ones are not counted against it (they finish, then count)
          max: null,
          running: dc.running,
          finished: dc.finished,
          maxFinished: dc.maxTasks,
          retentionSeconds: dc.retentionMs / 1000,
          zips: dc.zips,
          zipBytes: dc.zipBytes,
          expired: dc.expired,
          evicted: dc.evicted,
        },
        journal: { count: j.entries, max: j.capacity, recorded: j.recorded },
        cache: { count: c.entries, max: c.maxEntries, bytes: c.bytes, maxBytes: c.maxBytes },
        rateLimitWindows: {
          count: rateLimitStore.size(),
          max: null,
          note: "one per account and limited operation; ended windows swept as the map doubles",
        },
        payments: { count: p.payments, max: p.capacity },
        feedback: { count: feedbackReports.size(), max: FEEDBACK_CAPACITY },
        paymentClaims: {
          count: p.claims,
          max: null,
          note: "one per paid challenge not yet expired; expired ones swept as the map doubles",
        },
        ledger: { count: accounts.ledger().length, max: LEDGER_CAPACITY },
        accounts: { count: accounts.list().length, max: null, note: "created through the admin API or --key" },
        oauthClients: { count: oa.clients, max: oa.maxEach },
        oauthCodes: { count: oa.codes, max: oa.maxEach },
        oauthAccessTokens: { count: oa.accessTokens, max: oa.maxEach },
        oauthRefreshTokens: { count: oa.refreshTokens, max: oa.maxEach },
        replayUnmatched: r ? { count: r.unmatched, max: r.maxUnmatched, answers: r.answers, rebased: r.rebased } : null,
        faultRules: { count: faults.list().length, max: null, note: "added through the admin API" },
      };
    },
  };

  return {
    clock,
    accounts,
    apiAccounts: withOAuthTokens(accounts, oauth),
    oauth,
    rateLimitStore,
    deepcrawl,
    journal,
    payments,
    feedback,
    faults,
    admin,
    batchFailure(operationId, index) {
      if (!batchRule || (batchRule.operationId !== "*" && batchRule.operationId !== operationId)) return null;
      return batchRule.entries.includes(index) ? codeForStatus(batchRule.statusCode) : null;
    },
    setCacheStats(stats) {
      cacheStats = stats;
    },
  };
}

export type { DeepcrawlScenario };
