// startMock(): the stateful mock as a typed, in-process API (the `plumbline mock` command is a thin CLI over it).

import { randomBytes } from "node:crypto";
import { type Contract, type ErrorCode, loadContract, type RateLimitPolicy } from "@plumbline-kit/contract";
import { createPlatform } from "@plumbline-kit/platform/create-platform";
import { priceCurrency } from "@plumbline-kit/platform/payment-challenge";
import { createPaymentGate } from "@plumbline-kit/platform/payment-gate";
import type { PaymentMethodConfig } from "@plumbline-kit/platform/payment-methods";
import type { FastifyInstance } from "fastify";
import { adminRoutes } from "./admin-routes.ts";
import type { DeepcrawlSteps } from "./deepcrawl-simulator.ts";
import { DEMO_KEY, DEMO_PAYMENT_KEY } from "./demo-keys.ts";
import { documentAnswers } from "./document-answers.ts";
import { type EdgeOptions, type EdgeRecorder, installEdge } from "./edges/edge-steering.ts";
import { createSyntheticEngines } from "./engines/index.ts";
import { installHostGuard } from "./host-guard.ts";
import { MEMO_MAX_BYTES, memoizeEngines } from "./memoized-engines.ts";
import type { MockAccountInput } from "./memory-accounts.ts";
import { createMockState, type MockAdmin } from "./mock-state.ts";
import { oauthRoutes } from "./oauth-routes.ts";
import { paymentAdminRoutes } from "./payment-admin-routes.ts";
import { refuseDeepcrawlTargets, refuseTargets } from "./refused-targets.ts";
import { loadReplay, type Replay, type ReplayMatch, type ReplayReport, type ReplaySource } from "./replay/replay.ts";
import { countingAccounts, installRequestLog, type LoggedRequest } from "./request-log.ts";
import { steerEngines } from "./steered-engines.ts";
import { codeForStatus } from "./steered-response.ts";
import { installSteering, NO_PREFERENCES, preferencesOf } from "./steering-plugin.ts";
import type { ClockMode } from "./virtual-clock.ts";

export { DEMO_KEY, DEMO_PAYMENT_KEY };

export interface MockOptions {
  host?: string;
  /** 0 picks a free port */
  port?: number;
  /** accounts to create; none: one demo key with 1000 credits */
  keys?: MockAccountInput[];
  seed?: number;
  clock?: ClockMode;
  /** start of a manual clock (epoch ms) */
  startTime?: number;
  /** `max` exercises everything the contract allows, on every request */
  variability?: "normal" | "max";
  rateLimits?: Partial<RateLimitPolicy>;
  deepcrawlSteps?: Partial<DeepcrawlSteps>;
  /** seconds a finished deepcrawl task and its zip are kept on the mock clock (default a day); then its status is
   * that of an unknown task (404) */
  deepcrawlRetentionSeconds?: number;
  /** finished deepcrawl tasks kept at most, the oldest finished dropped first (default 1000); a running task is
   * never dropped */
  deepcrawlMaxTasks?: number;
  /** entries the request journal keeps, the newest (default 10,000) */
  journalSize?: number;
  /** answers of the pure engines kept for reuse, least recently used dropped first (default 2000; 0: none) */
  cacheSize?: number;
  profile?: string;
  /** another version of the contract to serve (`--spec FILE`); default spec/openapi.yaml */
  spec?: string;
  /** the version of the contract served, `seed` (default) or `live` (`--contract`; D-live-version); `spec` wins */
  contractVersion?: string;
  /** pino's JSON lines (`--log json`) */
  logger?: boolean;
  /** each finished request, for a readable log (`--log`, the default on a terminal): mock/request-log.ts */
  requestLog?: (entry: LoggedRequest) => void;
  /** serve targets on loopback and private hosts too (D-target-refusal; cloud metadata stays refused) */
  allowPrivateNetwork?: boolean;
  /** {mcp_url} and {site_url} of the Discovery table (D-mcp-endpoint; default: the mock's own URL) */
  mcpUrl?: string;
  siteUrl?: string;
  /** an already loaded contract (saves loading it again in tests) */
  contract?: Contract;
  /** the base of the URLs the mock hands out (zipUrl, resource metadata); default: the request's own host */
  publicUrl?: string;
  /** the key test-method payment credentials are signed with (default DEMO_PAYMENT_KEY) */
  paymentTestKey?: string;
  /** further payment methods (Tempo, Stripe) offered beside the test method */
  paymentMethods?: PaymentMethodConfig[];
  /** the HMAC secret binding payment challenges (default: random per start) */
  paymentSecret?: string;
  /** seconds a payment challenge can be paid (default 300) */
  paymentChallengeTtlSeconds?: number;
  /**
   * recordings to replay (HAR files, or HAR documents already parsed), merged in order: a request that matches a
   * recorded one gets the recorded answer once authentication, rate limits, validation and credits have passed
   * (docs/record-replay.md). A file that cannot be read rejects the start with a ReplayFileError
   */
  replay?: ReplaySource | ReplaySource[];
  /** how closely a request must match a recorded one: `exact` (default), `ignore-body`, `path` */
  replayMatch?: ReplayMatch;
  /** serve recorded answers that violate the spec as well (they are reported in `replay.invalid` either way) */
  replayInvalid?: boolean;
  /** the largest recording read, in bytes (default 256 MiB) */
  replayMaxBytes?: number;
  /**
   * host names served beside IP literals, `localhost`/`*.localhost`, the listen host and the hosts of `publicUrl`,
   * `mcpUrl` and `siteUrl` (`.example.com` also serves its subdomains); `"all"` serves any Host. Another Host is
   * refused 403 (DNS rebinding), as is a call of the admin API from a page of another origin (host-guard.ts)
   */
  allowedHosts?: string[] | "all";
  /**
   * steer into one edge of the contract (contract/edges/catalogue.ts) for every request it applies to, and record
   * the requests it altered (`GET /__mock/edge`, `edge.view()`); `plumbline edges` runs a client once per edge
   */
  edge?: EdgeOptions;
}

export interface RunningMock {
  url: string;
  port: number;
  admin: MockAdmin;
  app: FastifyInstance;
  contract: Contract;
  keys: MockAccountInput[];
  /** what loading the recordings found (answers, skipped entries, answers that violate the spec); null without
   * `replay` */
  replay: ReplayReport | null;
  /** with `edge`: the requests the edge altered */
  edge: EdgeRecorder | null;
  close(): Promise<void>;
}

/** `guardHosts`: refuse foreign Host names and cross-origin admin calls (a listening mock; MSW has no Host) */
export async function buildMock(options: MockOptions = {}, { guardHosts = false } = {}) {
  const contract =
    options.contract ??
    (await loadContract({ profile: options.profile, path: options.spec, version: options.contractVersion }));
  const seed = options.seed ?? 1;
  const keys = options.keys?.length ? options.keys : [{ key: DEMO_KEY, credits: 1000 }];
  const replay: Replay | null =
    options.replay === undefined || (Array.isArray(options.replay) && options.replay.length === 0)
      ? null
      : await loadReplay(options.replay, contract, {
          match: options.replayMatch,
          serveInvalid: options.replayInvalid,
          maxBytes: options.replayMaxBytes,
          publicUrl: options.publicUrl,
        });
  const state = createMockState({
    replay,
    contract,
    keys,
    clock: options.clock ?? "real",
    startTime: options.startTime,
    deepcrawlSteps: options.deepcrawlSteps,
    deepcrawlRetentionMs:
      options.deepcrawlRetentionSeconds === undefined ? undefined : options.deepcrawlRetentionSeconds * 1000,
    deepcrawlMaxTasks: options.deepcrawlMaxTasks,
    journalSize: options.journalSize,
  });
  const synthetic = createSyntheticEngines({ contract, now: () => new Date(state.clock.now()) });
  const allowPrivate = options.allowPrivateNetwork ?? false;
  const memo = memoizeEngines(synthetic, options.cacheSize);
  state.setCacheStats(() => ({
    entries: memo.cacheSize(),
    bytes: memo.cacheBytes(),
    maxEntries: memo.cacheMax,
    maxBytes: memo.cacheMax === 0 ? 0 : MEMO_MAX_BYTES,
  }));
  const engines = refuseTargets(steerEngines(contract, memo), allowPrivate);
  const plain = Object.freeze({ seed, variability: options.variability ?? "normal" });
  const variabilityOf = (req: Parameters<typeof preferencesOf>[0]) =>
    preferencesOf(req).variability ?? options.variability ?? "normal";

  // set while the platform is built (extend, below)
  const edged: { edge: ReturnType<typeof installEdge> | null } = { edge: null };
  const payments = await createPaymentGate({
    methods: [{ method: "test", key: options.paymentTestKey ?? DEMO_PAYMENT_KEY }, ...(options.paymentMethods ?? [])],
    store: state.payments,
    secretKey: options.paymentSecret ?? randomBytes(32).toString("base64url"),
    currency: priceCurrency(contract),
    recipient: "plumbline",
    // the challenge's resource metadata and bound request are on the URLs the mock hands out (MSW: its baseUrl)
    publicUrl: options.publicUrl,
    challengeTtlSeconds: options.paymentChallengeTtlSeconds,
  });
  // the readable log counts what each request was charged (only when asked: the hot path stays as it is)
  const counting = options.requestLog ? countingAccounts(state.apiAccounts) : null;
  const app = await createPlatform({
    payments,
    paymentFault: (req) => preferencesOf(req).payment ?? null,
    contract,
    accounts: counting?.store ?? state.apiAccounts,
    // the mock is its own authorization server (oauth-routes.ts)
    authorizationServer: "self",
    rateLimitStore: state.rateLimitStore,
    clock: state.clock,
    engines,
    deepcrawl: refuseDeepcrawlTargets(state.deepcrawl, allowPrivate),
    feedback: state.feedback,
    // a request steered by Prefer (example=, dynamic=, fail-entries=, deepcrawl=, variability=) asked for the
    // mock's own answer: the recording stays out of it
    recorded: replay
      ? {
          find: (req, operationId, body) => {
            const p = preferencesOf(req);
            const steered =
              p !== NO_PREFERENCES &&
              (p.example !== undefined ||
                p.dynamic === true ||
                p.failEntries !== undefined ||
                p.failEngines !== undefined ||
                p.deepcrawl !== undefined ||
                p.variability !== undefined);
            return steered ? null : replay.find(req, operationId, body);
          },
        }
      : undefined,
    rateLimits: options.rateLimits,
    publicUrl: options.publicUrl,
    mcpUrl: options.mcpUrl,
    siteUrl: options.siteUrl,
    logger: options.logger ?? false,
    engineContext: (req) => {
      const p = preferencesOf(req);
      if (p === NO_PREFERENCES) return plain; // the common case: nothing steered, nothing to allocate
      // steered-engines.ts reads example/dynamic, deepcrawl-simulator.ts reads deepcrawl (Prefer)
      return {
        seed: p.seed ?? seed,
        variability: variabilityOf(req),
        example: p.example,
        dynamic: p.dynamic,
        deepcrawl: p.deepcrawl,
        failEngines: p.failEngines,
      } as object;
    },
    // an operation of the document with no synthetic engine (mock --spec with a newer version) is answered from
    // the document's examples or schema (document-answers.ts)
    documentExecutor: documentAnswers(contract),
    batchEntryFault: (operationId, index, req): ErrorCode | null => {
      const p = preferencesOf(req);
      if (p.failEntries?.includes(index)) return "PLB_UPSTREAM_FAILED";
      const edgeFault = edged.edge?.batchEntryFault(operationId, index, req);
      if (edgeFault) return edgeFault;
      const ruled = state.batchFailure(operationId, index);
      if (ruled) return ruled;
      // contract-edge mode: every third entry fails, so clients meet partial batches
      return variabilityOf(req) === "max" && index % 3 === 2 ? codeForStatus(502) : null;
    },
    extend: async (app) => {
      if (guardHosts)
        installHostGuard(app, {
          allowedHosts: options.allowedHosts,
          listenHost: options.host,
          urls: [options.publicUrl, options.mcpUrl, options.siteUrl],
        });
      // an edge adds its Prefer preference before the steering reads it
      if (options.edge) edged.edge = installEdge(app, contract, state, options.edge);
      installSteering(app, contract, state, seed, payments);
      if (counting && options.requestLog) installRequestLog(app, counting.take, options.requestLog);
      adminRoutes(app, state.admin);
      paymentAdminRoutes(app, state.payments);
      await oauthRoutes(app, state.oauth);
    },
  });
  return { app, state, contract, keys, replay, edge: edged.edge?.recorder ?? null };
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { app, state, contract, keys, replay, edge } = await buildMock(options, { guardHosts: true });
  const host = options.host ?? "127.0.0.1";
  await app.listen({ host, port: options.port ?? 4010 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 4010);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    admin: state.admin,
    app,
    contract,
    keys,
    replay: replay?.report ?? null,
    edge,
    close: () => app.close(),
  };
}
