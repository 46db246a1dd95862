// startReference(): the reference implementation as a typed, in-process API (`plumbline reference` wraps it):
// the shared platform over SQL stores (SQLite by default, PostgreSQL with databaseUrl) and real engines.

import { randomBytes } from "node:crypto";
import { type Contract, loadContract, type RateLimitPolicy } from "@plumbline-kit/contract";
import { createPlatform } from "@plumbline-kit/platform/create-platform";
import { type DeepcrawlService, refundFailedTask } from "@plumbline-kit/platform/deepcrawl-service";
import type { Engines } from "@plumbline-kit/platform/engines";
import { priceCurrency } from "@plumbline-kit/platform/payment-challenge";
import { createPaymentGate } from "@plumbline-kit/platform/payment-gate";
import type { PaymentMethodConfig } from "@plumbline-kit/platform/payment-methods";
import type { PaymentStore } from "@plumbline-kit/platform/payment-store";
import type { PlatformOptions } from "@plumbline-kit/platform/platform-options";
import { defaultSearchService } from "@plumbline-kit/platform/request-defaults";
import { type Clock, realClock } from "@plumbline-kit/platform/stores";
import type { FastifyInstance } from "fastify";
import type { CookieSecureMode } from "./auth/account-pages.ts";
import { authView, migrateAuth } from "./auth/auth-schema.ts";
import { type AuthServer, prepareAuthServer } from "./auth/auth-server.ts";
import type { LoginThrottleOptions } from "./auth/login-throttle.ts";
import { withOAuthTokens } from "./auth/oauth-token-accounts.ts";
import type { DeepcrawlPageHook } from "./deepcrawl/deepcrawl-options.ts";
import { openPackageStore } from "./deepcrawl/open-package-store.ts";
import {
  createReferenceDeepcrawl,
  type ReferenceDeepcrawl,
  type ReferenceDeepcrawlOptions,
} from "./deepcrawl/reference-deepcrawl.ts";
import type { S3PackageStoreOptions } from "./deepcrawl/s3-package-store-options.ts";
import type { ModelOptions } from "./engines/extract/model-extract.ts";
import { createExtractEngine } from "./engines/extract-engine.ts";
import type { Resolver } from "./engines/guarded-lookup.ts";
import {
  createBrowserPool,
  createBrowserRenderer,
  createCrawlEngine,
  createHttpClient,
  createScreenshotEngine,
  createSitemapEngine,
} from "./engines/index.ts";
import { createParsePool, type ParsePoolOptions } from "./engines/parse/parse-pool.ts";
import { createTrendingEngine } from "./engines/trending-engine.ts";
import { createAskEngine } from "./search/ask-engine.ts";
import { createPageIndex } from "./search/create-page-index.ts";
import { deepcrawlIndexSink, indexingCrawl } from "./search/index-feeds.ts";
import type { PageIndex } from "./search/page-index.ts";
import { createBackendRouter, type SearchUpstreams } from "./search/search-backends.ts";
import { createSearchEngines } from "./search/search-engine.ts";
import { openDatabase } from "./store/open-database.ts";
import { createSqlAccounts, type SqlAccounts } from "./store/sql-accounts.ts";
import { createSqlFeedbackStore, migrateFeedback, type SqlFeedbackStore } from "./store/sql-feedback.ts";
import { createSqlPayments, migratePayments, paymentSecret } from "./store/sql-payments.ts";
import { createSqlRateLimitStore } from "./store/sql-rate-limits.ts";

export interface ReferenceOptions {
  host?: string;
  /** the clock of answers' timestamps, rate-limit windows, deepcrawl and its signed links (default the system's;
   * tests drive one) */
  clock?: Clock;
  /** the account pages' sign-in throttle: limits, window and clock (default 10 per username, 50 per address, 15 min) */
  signInThrottle?: LoginThrottleOptions;
  /** 0 picks a free port */
  port?: number;
  dataDir?: string;
  databaseUrl?: string;
  /**
   * seconds after its last renewal that an instance counts as dead, its open credit holds released by the next
   * instance that looks (default 30; renewed every third of it)
   */
  instanceLeaseSeconds?: number;
  /** SQLite commit durability (default "normal", see open-database.ts) */
  sqliteSynchronous?: "normal" | "full";
  /** accounts seeded at start (tests, demos); an existing key keeps its account */
  keys?: Array<{ key: string; credits: number; credentialType?: "api_key" | "oauth" }>;
  allowPrivateNetwork?: boolean;
  /** how outbound fetches resolve host names (default: the system's; tests make a public-looking name private) */
  resolve?: Resolver;
  /**
   * the issuer URL of an authorization server running apart (`plumbline reference auth-server` on the same
   * database); absent: the reference mounts its own and the protected-resource metadata names it
   */
  authorizationServer?: string;
  /** {mcp_url} and {site_url} of the Discovery table (D-mcp-endpoint; default: the base URL) */
  mcpUrl?: string;
  siteUrl?: string;
  /** false: no authorization server at all (authorization_servers is empty) */
  authServer?: boolean;
  /** the mounted authorization server's public issuer URL, when a proxy stands in front (default: the listen URL) */
  issuer?: string;
  /** credits of an account created on the sign-up page (default 100) */
  startingCredits?: number;
  /** Secure on the account pages' cookies: auto (when on https), always, never */
  cookieSecure?: CookieSecureMode;
  /** Chromium for /screenshot and the crawl fallback (default: PLUMBLINE_CHROMIUM, else the embedded build of @sparticuz/chromium) */
  chromiumPath?: string;
  /** pages rendered at once (default 4) and callers waiting for one (default 8; past that, 503) */
  browserContexts?: number;
  browserQueue?: number;
  /** never-used browser contexts kept ready for the next page (default 2; 0: each page starts its renderer) */
  browserSpares?: number;
  /** the User-Agent of outbound requests; a deployment names its own contact page here */
  userAgent?: string;
  rateLimits?: Partial<RateLimitPolicy>;
  /** where /trending reads its platforms (defaults: https://github.com, https://hacker-news.firebaseio.com) */
  trending?: { githubUrl?: string; hackernewsUrl?: string };
  /** an OpenAI-compatible chat-completions endpoint for /extract; absent: the deterministic extractor */
  extractModel?: ModelOptions;
  logger?: boolean;
  /** the version of the contract served, `seed` (default) or `live` (`--contract`; D-live-version): under live,
   * POST /ask and POST /feedback are answered; `contract` wins */
  contractVersion?: string;
  contract?: Contract;
  /** engines to use instead of the reference's own (tests) */
  engines?: Partial<Engines>;
  deepcrawl?: DeepcrawlService;
  /** deepcrawl limits, politeness, lease and zipUrl expiry (reference/deepcrawl/deepcrawl-options.ts) */
  deepcrawlSettings?: ReferenceDeepcrawlOptions["settings"];
  /** where deepcrawl packages are written (default DATA_DIR/packages); instances sharing a database share it too */
  packageDir?: string;
  /** deepcrawl packages in an S3-compatible bucket instead (every instance on the database reads them); its
   * credentials come from the AWS SDK's standard chain; the bucket is checked at start (HeadBucket) */
  packageS3?: S3PackageStoreOptions;
  /** called with every page a deepcrawl fetches (e.g. to feed a search index) */
  onDeepcrawlPage?: DeepcrawlPageHook;
  /** search upstreams (SearXNG, Wikipedia, arXiv, GitHub, Hacker News); without them the local page index answers */
  searchUpstreams?: SearchUpstreams;
  /** the key of the local test payment method (`--payment-test-key`); see D-payment-methods */
  paymentTestKey?: string;
  /** production payment methods (Tempo, Stripe) */
  paymentMethods?: PaymentMethodConfig[];
  /** the HMAC secret binding payment challenges (default: created once and kept in the database) */
  paymentSecret?: string;
  /** seconds a payment challenge can be paid (default 300) */
  paymentChallengeTtlSeconds?: number;
  /** the recipient named in payment challenges (default "plumbline") */
  paymentRecipient?: string;
  /** the parsing worker pool's threads, time and memory caps (issue 12, D-parse-limits) */
  parsing?: ParsePoolOptions;
  /** batch concurrency and deadline (D-batch-execution) */
  batchLimits?: PlatformOptions["batchLimits"];
  /** how long a request may take to arrive (D-framework-errors) */
  requestTimeouts?: PlatformOptions["requestTimeouts"];
}

export interface RunningReference {
  url: string;
  port: number;
  app: FastifyInstance;
  accounts: SqlAccounts;
  /** the mounted authorization server (absent with authorizationServer or authServer: false) */
  auth?: AuthServer;
  database: string;
  /** the reference's own deepcrawl service (null when options.deepcrawl replaced it) */
  deepcrawl: ReferenceDeepcrawl | null;
  /** the full-text index of every page fetched; search and news answer from it when no upstream serves a value */
  pageIndex: PageIndex;
  /** the test payment method's key: the one given, or a fresh one when no payment method was configured */
  paymentTestKey: string | null;
  /** the payments received (what `plumbline reference payments list` prints) */
  payments: PaymentStore;
  /** POST /feedback's reports (the live contract; D-feedback), in the database under every version */
  feedback: SqlFeedbackStore;
  close(): Promise<void>;
}

export async function startReference(o: ReferenceOptions = {}): Promise<RunningReference> {
  const contract = o.contract ?? (await loadContract({ version: o.contractVersion }));
  const packages = o.deepcrawl ? null : await openPackageStore(o);
  const opened = await openDatabase({
    dataDir: o.dataDir,
    databaseUrl: o.databaseUrl,
    sqliteSynchronous: o.sqliteSynchronous,
  });
  const accounts = createSqlAccounts(opened.db, { dialect: opened.dialect });
  for (const k of o.keys ?? []) {
    if (!(await accounts.authenticate(k.key))) await accounts.createAccount(k);
  }
  // this server is a live instance on the database: the credits a dead one held (kill -9, a crash) return now and
  // whenever another instance's lease runs out (issue 38)
  const ledger = await accounts.startInstance({
    leaseMs: (o.instanceLeaseSeconds ?? 30) * 1000,
    onError: (err) => console.error("ledger: renewing this instance or releasing dead instances' holds failed", err),
  });
  // one outbound client for the whole reference, with the SSRF guard (issue 5 "POST /crawl")
  const http = createHttpClient({
    allowPrivateNetwork: o.allowPrivateNetwork,
    userAgent: o.userAgent,
    resolve: o.resolve,
  });
  // one warm browser for /screenshot and the crawl fallback (issue 11)
  const browsers = createBrowserPool({
    executablePath: o.chromiumPath,
    contexts: o.browserContexts,
    queue: o.browserQueue,
    spares: o.browserSpares ?? 2,
  });
  const renderer = createBrowserRenderer({ http, pool: browsers });
  // parsing runs in worker threads, never on the event loop (issue 12): every engine's, /extract's and /trending's
  // included (issue 38)
  const parser = createParsePool(o.parsing);
  const clock = o.clock ?? realClock;
  // upstreams the operator configured (trending platforms) may sit on a private network: they are not targets
  const upstreamHttp = createHttpClient({ allowPrivateNetwork: true, userAgent: o.userAgent });
  const pageIndex = await createPageIndex(opened);
  // every page /crawl and crawl_results fetch joins the index (issue 14 "Embedded default")
  const crawl = indexingCrawl(o.engines?.crawl ?? createCrawlEngine({ http, renderer, clock, parser }), pageIndex);
  const engines: Engines = {
    crawl,
    ...createSearchEngines({
      contract,
      index: pageIndex,
      backendFor: createBackendRouter(o.searchUpstreams ?? {}, Date.now, parser),
      crawl,
      clock,
      defaultService: {
        search: defaultSearchService(contract, "SearchParameters"),
        news: defaultSearchService(contract, "NewsParameters"),
      },
    }),
    screenshot: createScreenshotEngine({ contract, pool: browsers, http }),
    sitemap: createSitemapEngine({ http, parser }),
    trending: createTrendingEngine({ contract, http: upstreamHttp, parser, ...o.trending }),
    extract: createExtractEngine({ http, model: o.extractModel, parser }),
  };
  await migratePayments(opened.db, opened.dialect);
  const payments = createSqlPayments(opened.db);
  // D-payment-methods: with no method configured, a test method with a fresh key keeps the flow usable
  const paymentTestKey = o.paymentTestKey ?? (o.paymentMethods?.length ? null : randomBytes(18).toString("base64url"));
  const gate = await createPaymentGate({
    methods: [
      ...(paymentTestKey ? [{ method: "test" as const, key: paymentTestKey }] : []),
      ...(o.paymentMethods ?? []),
    ],
    store: payments,
    secretKey: o.paymentSecret ?? (await paymentSecret(opened.db)),
    currency: priceCurrency(contract),
    recipient: o.paymentRecipient ?? "plumbline",
    challengeTtlSeconds: o.paymentChallengeTtlSeconds,
  });
  // the feedback table always exists, so the account pages of any instance list an account's reports
  await migrateFeedback(opened.db, opened.dialect);
  const feedback = createSqlFeedbackStore(opened.db);
  // the authorization server's tables always exist, so tokens of a separate one on this database are recognised
  await migrateAuth(authView(opened.db), opened.dialect);
  const rateLimitStore = createSqlRateLimitStore(opened.db);
  const auth =
    o.authorizationServer === undefined && o.authServer !== false
      ? await prepareAuthServer({
          db: opened.db,
          dialect: opened.dialect,
          rateLimitStore,
          issuer: o.issuer,
          startingCredits: o.startingCredits,
          cookieSecure: o.cookieSecure,
          signInThrottle: o.signInThrottle,
          feedback,
        })
      : undefined;
  const indexPage = deepcrawlIndexSink(pageIndex);
  const deepcrawl = o.deepcrawl
    ? null
    : await createReferenceDeepcrawl({
        db: opened.db,
        dialect: opened.dialect,
        http,
        renderer,
        parser,
        clock,
        packages: packages as NonNullable<typeof packages>,
        settings: o.deepcrawlSettings,
        allowPrivateNetwork: o.allowPrivateNetwork,
        userAgent: o.userAgent,
        // a task that ends failed gives its charge back (D-charging)
        onFailed: refundFailedTask(accounts, (m, err) => console.error(m, err ?? "")),
        // every page a deepcrawl fetches joins the index too, and goes to the caller's hook
        onPage: async (page) => {
          await indexPage(page);
          await o.onDeepcrawlPage?.(page);
        },
      });
  const served: Engines = { ...engines, ...o.engines, crawl };
  // the live contract's POST /ask: the request read, the reference's own search and news engines searched
  if (contract.findOperation("ask") && !served.ask) served.ask = createAskEngine({ engines: served, clock });
  const platformOptions = {
    payments: gate,
    paymentRecipient: o.paymentRecipient,
    contract,
    accounts: withOAuthTokens(accounts, authView(opened.db)),
    // in the database: several instances behind one balancer count an account's requests together
    rateLimitStore,
    clock,
    engines: served,
    // POST /feedback is routed only when the contract has it (the live version)
    feedback,
    // the reference's own service, unless a caller (a test) gave one
    deepcrawl: deepcrawl ?? (o.deepcrawl as DeepcrawlService),
    rateLimits: o.rateLimits,
    authorizationServer: o.authorizationServer,
    mcpUrl: o.mcpUrl,
    siteUrl: o.siteUrl,
    batchLimits: o.batchLimits,
    requestTimeouts: o.requestTimeouts,
    logger: o.logger ? { redact: ["req.headers.authorization"] } : false,
    extend: auth ? (a: FastifyInstance) => auth.mount(a) : undefined,
  };
  const app = await createPlatform(platformOptions);
  const host = o.host ?? "127.0.0.1";
  try {
    await app.listen({ host, port: o.port ?? 8080 });
  } catch (err) {
    await deepcrawl?.close();
    packages?.close?.();
    await browsers.close();
    await parser.close();
    await pageIndex.close?.();
    await ledger.close();
    await opened.close();
    throw err;
  }
  const port = (app.server.address() as { port: number }).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  // the issuer is known once the port is: the protected-resource metadata names it (D-authorization-server)
  if (auth) platformOptions.authorizationServer = auth.start(url);
  return {
    url,
    port,
    app,
    accounts,
    auth,
    database: `${opened.dialect} ${opened.location}`,
    deepcrawl,
    pageIndex,
    paymentTestKey,
    payments,
    feedback,
    async close() {
      await app.close();
      // every request has ended: nothing is held here any more (what is, is released), and the instance leaves
      await ledger.close();
      // the worker lets its running tasks go (their leases released) before the database closes
      await deepcrawl?.close();
      packages?.close?.();
      await browsers.close();
      await http.close();
      await parser.close();
      await pageIndex.close?.();
      await opened.close();
    },
  };
}
