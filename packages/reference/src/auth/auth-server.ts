// The authorization server as a part the reference mounts (issue 15), or that `plumbline reference auth-server`
// runs alone on the same database: oidc-provider behind Fastify under the contract's paths ({auth_url}/oauth/…,
// RFC 8414 metadata at /.well-known/oauth-authorization-server), and the account pages. oidc-provider is a Koa
// application; its callback takes the raw Node request, so these routes hand the request over untouched (no body
// parsing) and hijack the reply.

import type { RateLimitStore } from "@plumbline-kit/platform/stores";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type Provider from "oidc-provider";
import type { Database, Dialect } from "../store/schema.ts";
import { createSqlFeedbackStore, migrateFeedback, type SqlFeedbackStore } from "../store/sql-feedback.ts";
import { type AccountPagesOptions, accountPages, type CookieSecureMode } from "./account-pages.ts";
import { AUTH_PATHS } from "./auth-paths.ts";
import { authView, migrateAuth } from "./auth-schema.ts";
import { loadAuthSecrets } from "./auth-secrets.ts";
import { createLoginThrottle, type LoginThrottleOptions } from "./login-throttle.ts";
import { createUserStore, type UserStore } from "./user-store.ts";

export const DEFAULT_STARTING_CREDITS = 100;

export interface AuthServerOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  rateLimitStore: RateLimitStore;
  /** the public issuer URL when a proxy stands in front (else the address the server listens on) */
  issuer?: string;
  /** credits a new account starts with (default 100) */
  startingCredits?: number;
  /** Secure on cookies: auto (when the browser is on https), always, never */
  cookieSecure?: CookieSecureMode;
  accessTokenTtlSeconds?: number;
  /** the sign-in throttle's limits, window and clock (default 10 per username, 50 per address, 15 minutes) */
  signInThrottle?: LoginThrottleOptions;
  /** origins of the API and its MCP endpoint (RFC 8707 resources it accepts), beside the issuer's */
  resourceOrigins?: string[];
  /** where the account page reads the account's feedback reports (default: the database's feedback table) */
  feedback?: Pick<SqlFeedbackStore, "listForAccount">;
}

export interface AuthServer {
  users: UserStore;
  /** adds the routes (before the server listens) */
  mount(app: FastifyInstance): Promise<void>;
  /** creates the provider once the listening address is known; returns the issuer */
  start(listeningUrl: string): string;
  issuer(): string;
}

/** Scope containing offline_access without prompt=consent: oidc-provider drops it (OpenID Core §11); the contract
 * issues a refresh token whenever offline_access is requested, so the consent prompt is asked for instead. */
export function withConsentForOfflineAccess(url: string): string {
  const u = new URL(url, "http://x");
  if (u.pathname !== AUTH_PATHS.authorize) return url;
  const scope = u.searchParams.get("scope")?.split(" ") ?? [];
  const prompt = u.searchParams.get("prompt")?.split(" ").filter(Boolean) ?? [];
  if (!scope.includes("offline_access") || prompt.includes("consent") || prompt.includes("none")) return url;
  u.searchParams.set("prompt", [...prompt, "consent"].join(" "));
  return `${u.pathname}${u.search}`;
}

export async function prepareAuthServer(o: AuthServerOptions): Promise<AuthServer> {
  const db = authView(o.db);
  await migrateAuth(db, o.dialect);
  const secrets = await loadAuthSecrets(db);
  const users = createUserStore(db, { startingCredits: o.startingCredits ?? DEFAULT_STARTING_CREDITS });
  // run alone (`reference auth-server`), it lists the reports the API instances on the database kept
  if (!o.feedback) await migrateFeedback(o.db, o.dialect);
  const feedback = o.feedback ?? createSqlFeedbackStore(o.db);
  // oidc-provider (~0.4 s to load) loads at the first request that needs it, not with every reference
  let issuer = "";
  type Started = { provider: Provider; handler: ReturnType<Provider["callback"]> };
  let started: Promise<Started> | null = null;
  let startProvider: (() => Promise<Started>) | null = null;
  const ready = (): Promise<Started> => {
    if (!startProvider) throw new Error("the authorization server is not started");
    // a provider that failed to start is tried again at the next request
    started ??= startProvider().catch((err) => {
      started = null;
      throw err;
    });
    return started;
  };
  const current = async () => (await ready()).provider;

  const pages: AccountPagesOptions = {
    users,
    throttle: createLoginThrottle(o.rateLimitStore, o.signInThrottle),
    provider: current,
    cookieKeys: secrets.cookieKeys,
    cookieSecure: o.cookieSecure ?? "auto",
    httpsIssuer: () => issuer.startsWith("https:"),
    feedback: (accountId, limit) => feedback.listForAccount(accountId, limit),
  };

  return {
    users,
    issuer: () => issuer,
    start(listeningUrl) {
      issuer = (o.issuer ?? listeningUrl).replace(/\/$/, "");
      startProvider = async () => {
        const { createProvider } = await import("./create-provider.ts");
        const provider = createProvider({
          issuer,
          db,
          users,
          secrets,
          proxy: o.issuer !== undefined,
          accessTokenTtlSeconds: o.accessTokenTtlSeconds,
          resourceOrigins: o.resourceOrigins,
        });
        return { provider, handler: provider.callback() };
      };
      return issuer;
    },
    async mount(app) {
      await app.register(async (scope) => {
        // oidc-provider reads the body itself
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser("*", (_req, _payload, done) => done(null, undefined));
        const handOver = (rewrite?: string) => async (req: FastifyRequest, reply: FastifyReply) => {
          const { handler } = await ready();
          reply.hijack();
          if (rewrite) req.raw.url = rewrite;
          else if (req.raw.url) req.raw.url = withConsentForOfflineAccess(req.raw.url);
          handler(req.raw, reply.raw);
        };
        scope.all("/oauth/*", handOver());
        scope.get(AUTH_PATHS.openidMetadata, handOver());
        // RFC 8414 §3 names its own well-known path; the document is the same
        scope.get(AUTH_PATHS.metadata, handOver(AUTH_PATHS.openidMetadata));
      });
      await accountPages(app, pages);
    },
  };
}
