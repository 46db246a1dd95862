// startReference(): the reference implementation as a typed, in-process API (`plumbline reference` wraps it):
// the shared platform over SQL stores (SQLite by default, PostgreSQL with databaseUrl) and real engines.
import type { FastifyInstance } from "fastify";
import { type Contract, loadContract, type RateLimitPolicy } from "../spec/index.ts";
import { createBrowserRenderer, createCrawlEngine, createHttpClient, createSitemapEngine } from "./engines/index.ts";
import { createParsePool, type ParsePoolOptions } from "./engines/parse/parse-pool.ts";
import { createPlatform } from "./platform/create-platform.ts";
import type { DeepcrawlService } from "./platform/deepcrawl-service.ts";
import type { Engines } from "./platform/engines.ts";
import type { PlatformOptions } from "./platform/platform-options.ts";
import { realClock } from "./platform/stores.ts";
import { openDatabase } from "./store/open-database.ts";
import { createSqlAccounts, type SqlAccounts } from "./store/sql-accounts.ts";
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
  database: string;
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
  // parsing runs in worker threads, never on the event loop (issue 12)
  const parser = createParsePool(o.parsing);
  const engines: Partial<Engines> = {
    crawl: createCrawlEngine({ http, renderer, clock: realClock, parser }),
    sitemap: createSitemapEngine({ http, parser }),
  };
  const app = await createPlatform({
    contract,
    accounts,
    // in the database: several instances behind one balancer count an account's requests together
    rateLimitStore: createSqlRateLimitStore(opened.db),
    clock: realClock,
    engines: { ...unimplementedEngines, ...engines, ...o.engines },
    deepcrawl: o.deepcrawl ?? unimplementedDeepcrawl,
    rateLimits: o.rateLimits,
    authorizationServer: o.authorizationServer,
    batchLimits: o.batchLimits,
    requestTimeouts: o.requestTimeouts,
    logger: o.logger ? { redact: ["req.headers.authorization"] } : false,
  });
  const host = o.host ?? "127.0.0.1";
  try {
    await app.listen({ host, port: o.port ?? 8080 });
  } catch (err) {
    await renderer.close();
    await parser.close();
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
    async close() {
      await app.close();
      await renderer.close();
      await parser.close();
      await opened.close();
    },
  };
}
