// startReference(): the reference implementation as a typed, in-process API (`plumbline reference` wraps it):
// the shared platform over SQL stores (SQLite by default, PostgreSQL with databaseUrl) and real engines.

import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { type Contract, loadContract, type RateLimitPolicy } from "../spec/index.ts";
import { createBrowserRenderer, createCrawlEngine, createHttpClient, createSitemapEngine } from "./engines/index.ts";
import { createPlatform } from "./platform/create-platform.ts";
import type { DeepcrawlService } from "./platform/deepcrawl-service.ts";
import type { Engines } from "./platform/engines.ts";
import { priceCurrency } from "./platform/payment-challenge.ts";
import { createPaymentGate } from "./platform/payment-gate.ts";
import type { PaymentMethodConfig } from "./platform/payment-methods.ts";
import type { PaymentStore } from "./platform/payment-store.ts";
import { realClock } from "./platform/stores.ts";
import { openDatabase } from "./store/open-database.ts";
import { createSqlAccounts, type SqlAccounts } from "./store/sql-accounts.ts";
import { createSqlPayments, migratePayments, paymentSecret } from "./store/sql-payments.ts";
import { createSqlRateLimitStore } from "./store/sql-rate-limits.ts";
import { unimplementedDeepcrawl, unimplementedEngines } from "./unimplemented-engines.ts";

export interface ReferenceOptions {
  host?: string;
  /** 0 picks a free port */
  port?: number;
  dataDir?: string;
  databaseUrl?: string;
  /** accounts seeded at start (tests, demos); an existing key keeps its account */
  keys?: Array<{ key: string; credits: number; credentialType?: "api_key" | "oauth" }>;
  allowPrivateNetwork?: boolean;
  /** the issuer URL of the authorization server the protected-resource metadata names (none by default) */
  authorizationServer?: string;
  /** Chromium for the crawl fallback (default: PLUMBLINE_CHROMIUM, else /usr/bin/chromium) */
  chromiumPath?: string;
  /** the User-Agent of outbound requests; a deployment names its own contact page here */
  userAgent?: string;
  rateLimits?: Partial<RateLimitPolicy>;
  logger?: boolean;
  contract?: Contract;
  /** engines to use instead of the reference's own (tests) */
  engines?: Partial<Engines>;
  deepcrawl?: DeepcrawlService;
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
}

export interface RunningReference {
  url: string;
  port: number;
  app: FastifyInstance;
  accounts: SqlAccounts;
  database: string;
  /** the test payment method's key: the one given, or a fresh one when no payment method was configured */
  paymentTestKey: string | null;
  /** the payments received (what `plumbline reference payments list` prints) */
  payments: PaymentStore;
  close(): Promise<void>;
}

export async function startReference(o: ReferenceOptions = {}): Promise<RunningReference> {
  const contract = o.contract ?? (await loadContract());
  const opened = await openDatabase({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  const accounts = createSqlAccounts(opened.db);
  for (const k of o.keys ?? []) {
    if (!(await accounts.authenticate(k.key))) await accounts.createAccount(k);
  }
  // one outbound client for the whole reference, with the SSRF guard (issue 5 "POST /crawl")
  const http = createHttpClient({ allowPrivateNetwork: o.allowPrivateNetwork, userAgent: o.userAgent });
  const renderer = createBrowserRenderer({ http, executablePath: o.chromiumPath });
  const engines: Partial<Engines> = {
    crawl: createCrawlEngine({ http, renderer, clock: realClock }),
    sitemap: createSitemapEngine({ http }),
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
  const app = await createPlatform({
    payments: gate,
    paymentRecipient: o.paymentRecipient,
    contract,
    accounts,
    // in the database: several instances behind one balancer count an account's requests together
    rateLimitStore: createSqlRateLimitStore(opened.db),
    clock: realClock,
    engines: { ...unimplementedEngines, ...engines, ...o.engines },
    deepcrawl: o.deepcrawl ?? unimplementedDeepcrawl,
    rateLimits: o.rateLimits,
    authorizationServer: o.authorizationServer,
    logger: o.logger ? { redact: ["req.headers.authorization"] } : false,
  });
  const host = o.host ?? "127.0.0.1";
  try {
    await app.listen({ host, port: o.port ?? 8080 });
  } catch (err) {
    await renderer.close();
    await opened.close();
    throw err;
  }
  const port = (app.server.address() as { port: number }).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    app,
    accounts,
    database: `${opened.dialect} ${opened.location}`,
    paymentTestKey,
    payments,
    async close() {
      await app.close();
      await renderer.close();
      await opened.close();
    },
  };
}
