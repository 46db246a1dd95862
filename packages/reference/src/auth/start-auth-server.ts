// startAuthServer(): the authorization server and account pages as their own process, for deployments that
// separate them from the API (`plumbline reference auth-server`; issue 15). It shares the reference's database, so
// the API (started with --authorization-server naming this issuer) recognises the tokens it issues, and revoking
// one here refuses it there at once.

import { loggerOptions } from "@plumbline-kit/platform/log-options";
import Fastify, { type FastifyInstance } from "fastify";
import { openDatabase } from "../store/open-database.ts";
import { createSqlRateLimitStore } from "../store/sql-rate-limits.ts";
import type { CookieSecureMode } from "./account-pages.ts";
import { prepareAuthServer } from "./auth-server.ts";

export interface AuthServerProcessOptions {
  host?: string;
  /** 0 picks a free port (default 8081) */
  port?: number;
  dataDir?: string;
  databaseUrl?: string;
  /** the public issuer URL behind a proxy (default: the listen URL) */
  issuer?: string;
  startingCredits?: number;
  cookieSecure?: CookieSecureMode;
  /** origins of the API and its MCP endpoint it issues tokens for (RFC 8707 `resource`), beside its own */
  resourceOrigins?: string[];
  logger?: boolean;
}

export interface RunningAuthServer {
  url: string;
  issuer: string;
  port: number;
  app: FastifyInstance;
  database: string;
  close(): Promise<void>;
}

export async function startAuthServer(o: AuthServerProcessOptions = {}): Promise<RunningAuthServer> {
  const opened = await openDatabase({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  const auth = await prepareAuthServer({
    db: opened.db,
    dialect: opened.dialect,
    rateLimitStore: createSqlRateLimitStore(opened.db),
    issuer: o.issuer,
    startingCredits: o.startingCredits,
    cookieSecure: o.cookieSecure,
    resourceOrigins: o.resourceOrigins,
  });
  const app = Fastify({ logger: loggerOptions(o.logger ? { redact: ["req.headers.authorization"] } : false) });
  await auth.mount(app);
  app.get("/", async (_req, reply) => reply.redirect("/account", 302));
  const host = o.host ?? "127.0.0.1";
  try {
    await app.listen({ host, port: o.port ?? 8081 });
  } catch (err) {
    await opened.close();
    throw err;
  }
  const port = (app.server.address() as { port: number }).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const issuer = auth.start(url);
  return {
    url,
    issuer,
    port,
    app,
    database: `${opened.dialect} ${opened.location}`,
    async close() {
      await app.close();
      await opened.close();
    },
  };
}
