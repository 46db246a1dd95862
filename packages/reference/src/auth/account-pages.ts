// The account pages (issue 15 "Account pages"; interface-spec "OAuth flow" 6, "API keys are created, rotated and
// revoked in the account dashboard"): sign up, sign in, the sign-in and consent steps of the authorization request
// (oidc-provider interactions: registering a client creates no user; a user appears only by signing up here), and
// the dashboard. Forms carry a CSRF token (@fastify/csrf-protection, double-submit cookie); cookies are HttpOnly,
// SameSite=Lax and Secure over https (or as configured); passwords are argon2id; sign-in attempts are rate-limited.
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import type { FeedbackReport } from "@plumbline-kit/platform/stores";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import { AUTH_PATHS } from "./auth-paths.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { consentPage, dashboardPage, esc, layout, signInPage, signUpPage } from "./pages-html.ts";
import type { User, UserStore } from "./user-store.ts";

export type CookieSecureMode = "auto" | "always" | "never";

export interface AccountPagesOptions {
  users: UserStore;
  throttle: LoginThrottle;
  /** the provider, once the server listens (its issuer is known only then), loaded at its first use */
  provider: () => Promise<Provider>;
  cookieKeys: string[];
  cookieSecure: CookieSecureMode;
  /** the issuer is https: the browser reaches these pages over https whatever the last hop is */
  httpsIssuer: () => boolean;
  /** the account's newest feedback reports (POST /feedback of the live contract; D-feedback) */
  feedback?: (accountId: string, limit: number) => Promise<FeedbackReport[]>;
}

const SESSION_COOKIE = "plumbline_session";
type Form = Record<string, string | undefined>;

export async function accountPages(app: FastifyInstance, o: AccountPagesOptions) {
  await app.register(async (scope) => {
    await scope.register(fastifyCookie, { secret: o.cookieKeys });
    await scope.register(fastifyFormbody);
    const secure = (req: FastifyRequest) =>
      o.cookieSecure === "always" || (o.cookieSecure === "auto" && (req.protocol === "https" || o.httpsIssuer()));
    await scope.register(fastifyCsrf, {
      cookieKey: "plumbline_csrf",
      cookieOpts: { path: "/account", httpOnly: true, sameSite: "lax", signed: true },
    });
    // every cookie of these pages (the CSRF secret's too) is Secure when the browser is on https
    scope.addHook("onSend", async (req, reply) => {
      const cookies = reply.getHeader("set-cookie");
      if (!cookies || !secure(req)) return;
      const list = (Array.isArray(cookies) ? cookies : [String(cookies)]).map((c) =>
        /;\s*secure/i.test(c) ? c : `${c}; Secure`,
      );
      reply.header("set-cookie", list);
    });
    scope.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) req.log.error({ err }, "account page error");
      const message =
        err.code?.startsWith("FST_CSRF") === true
          ? "The form expired or did not come from this site. Go back, reload the page and try again."
          : status === 500
            ? "Something went wrong on our side."
            : err.message;
      return html(reply.code(status), layout("Error", `<h1>That did not work</h1><p>${esc(message)}</p>`));
    });

    const form = (req: FastifyRequest): Form => (req.body && typeof req.body === "object" ? (req.body as Form) : {});
    const html = (reply: FastifyReply, body: string) =>
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);
    const sessionUser = (req: FastifyRequest) => o.users.sessionUser(req.cookies[SESSION_COOKIE]);
    const startSession = async (req: FastifyRequest, reply: FastifyReply, user: User) => {
      const s = await o.users.startSession(user.id);
      reply.setCookie(SESSION_COOKIE, s.cookie, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: secure(req),
        maxAge: s.maxAgeSeconds,
      });
    };
    // preHandler, not onRequest: the token travels in the form body, parsed by then
    const csrf = { preHandler: scope.csrfProtection };

    /** One sign-in attempt: throttled, then the password checked. */
    async function signIn(req: FastifyRequest, reply: FastifyReply, f: Form) {
      const login = (f.login ?? "").trim();
      const wait = await o.throttle.attempt(req.ip, login);
      if (wait !== null) {
        reply.code(429).header("retry-after", String(wait));
        return { problem: `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60)} minutes.`, login };
      }
      const user = await o.users.verify(login, f.password ?? "");
      if (!user) {
        reply.code(401);
        return { problem: "Wrong username or password.", login };
      }
      await startSession(req, reply, user);
      return { user };
    }

    // -- sign up, sign in, sign out, dashboard ------------------------------------------------------------------
    scope.get("/account/signup", async (_req, reply) =>
      html(reply, signUpPage({ action: "/account/signup", csrf: reply.generateCsrf(), signInHref: "/account/login" })),
    );
    scope.post("/account/signup", csrf, async (req, reply) => {
      const f = form(req);
      const r = await o.users.signUp((f.login ?? "").trim(), f.password ?? "");
      if (!r.ok) {
        const page = signUpPage({
          action: "/account/signup",
          csrf: reply.generateCsrf(),
          signInHref: "/account/login",
          problem: r.problem,
          login: f.login,
        });
        return html(reply.code(400), page);
      }
      await startSession(req, reply, r.user);
      return reply.redirect("/account", 303);
    });
    scope.get("/account/login", async (_req, reply) =>
      html(reply, signInPage({ action: "/account/login", csrf: reply.generateCsrf(), signUpHref: "/account/signup" })),
    );
    scope.post("/account/login", csrf, async (req, reply) => {
      const r = await signIn(req, reply, form(req));
      if (r.user) return reply.redirect("/account", 303);
      return html(
        reply,
        signInPage({ action: "/account/login", csrf: reply.generateCsrf(), signUpHref: "/account/signup", ...r }),
      );
    });
    scope.post("/account/logout", csrf, async (req, reply) => {
      await o.users.endSession(req.cookies[SESSION_COOKIE]);
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return reply.redirect("/account/login", 303);
    });

    async function dashboard(req: FastifyRequest, reply: FastifyReply, extra: { newKey?: string; notice?: string }) {
      const user = await sessionUser(req);
      if (!user) return reply.redirect("/account/login", 303);
      return html(
        reply,
        dashboardPage({
          login: user.login,
          balance: await o.users.balance(user.accountId),
          usage: await o.users.recentUsage(user.accountId, 20),
          keys: await o.users.keys(user.accountId),
          feedback: (await o.feedback?.(user.accountId, 20)) ?? [],
          csrf: reply.generateCsrf(),
          ...extra,
        }),
      );
    }
    scope.get("/account", async (req, reply) => dashboard(req, reply, {}));
    // a new key is shown in the answer to the POST itself, never in a URL, and only this once
    scope.post("/account/keys", csrf, async (req, reply) => {
      const user = await sessionUser(req);
      if (!user) return reply.redirect("/account/login", 303);
      return dashboard(req, reply, { newKey: await o.users.createKey(user.accountId) });
    });
    scope.post("/account/keys/rotate", csrf, async (req, reply) => {
      const user = await sessionUser(req);
      if (!user) return reply.redirect("/account/login", 303);
      const key = await o.users.rotateKey(user.accountId, form(req).prefix ?? "");
      return dashboard(
        req,
        reply,
        key ? { newKey: key, notice: "The old key is revoked." } : { notice: "No such key." },
      );
    });
    scope.post("/account/keys/revoke", csrf, async (req, reply) => {
      const user = await sessionUser(req);
      if (!user) return reply.redirect("/account/login", 303);
      const done = await o.users.revokeKey(user.accountId, form(req).prefix ?? "");
      return dashboard(req, reply, { notice: done ? "The key is revoked." : "No such key." });
    });

    // -- the authorization request's interactions (oidc-provider) ------------------------------------------------
    const base = `${AUTH_PATHS.interaction}/:uid`;
    const finish = async (req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>) => {
      const to = await (await o.provider()).interactionResult(req.raw, reply.raw, result, {
        mergeWithLastSubmission: false,
      });
      return reply.redirect(to, 303);
    };
    const paths = (uid: string) => ({
      login: `${AUTH_PATHS.interaction}/${uid}/login`,
      signup: `${AUTH_PATHS.interaction}/${uid}/signup`,
      confirm: `${AUTH_PATHS.interaction}/${uid}/confirm`,
      abort: `${AUTH_PATHS.interaction}/${uid}/abort`,
    });

    scope.get(base, async (req, reply) => {
      const details = await (await o.provider()).interactionDetails(req.raw, reply.raw);
      const p = paths(details.uid);
      if (details.prompt.name === "login") {
        // already signed in to the account pages: that is who authorizes
        const user = await sessionUser(req);
        if (user) return finish(req, reply, { login: { accountId: user.id } });
        return html(reply, signInPage({ action: p.login, csrf: reply.generateCsrf(), signUpHref: p.signup }));
      }
      const user = details.session?.accountId ? await o.users.byId(details.session.accountId) : null;
      if (!user) return finish(req, reply, { error: "login_required", error_description: "no signed-in user" });
      const client = await (await o.provider()).Client.find(String(details.params.client_id));
      const requested = String(details.params.scope ?? "")
        .split(" ")
        .filter(Boolean);
      return html(
        reply,
        consentPage({
          action: p.confirm,
          abortAction: p.abort,
          csrf: reply.generateCsrf(),
          clientName: client?.clientName ?? "An application",
          clientId: String(details.params.client_id),
          redirectUri: String(details.params.redirect_uri ?? ""),
          scopes: requested,
          login: user.login,
        }),
      );
    });
    scope.post(`${base}/login`, csrf, async (req, reply) => {
      const details = await (await o.provider()).interactionDetails(req.raw, reply.raw);
      const r = await signIn(req, reply, form(req));
      if (r.user) return finish(req, reply, { login: { accountId: r.user.id } });
      const p = paths(details.uid);
      return html(reply, signInPage({ action: p.login, csrf: reply.generateCsrf(), signUpHref: p.signup, ...r }));
    });
    scope.get(`${base}/signup`, async (req, reply) => {
      const details = await (await o.provider()).interactionDetails(req.raw, reply.raw);
      const p = paths(details.uid);
      return html(
        reply,
        signUpPage({
          action: p.signup,
          csrf: reply.generateCsrf(),
          signInHref: `${AUTH_PATHS.interaction}/${details.uid}`,
        }),
      );
    });
    scope.post(`${base}/signup`, csrf, async (req, reply) => {
      const details = await (await o.provider()).interactionDetails(req.raw, reply.raw);
      const f = form(req);
      const r = await o.users.signUp((f.login ?? "").trim(), f.password ?? "");
      if (!r.ok) {
        const p = paths(details.uid);
        const page = signUpPage({
          action: p.signup,
          csrf: reply.generateCsrf(),
          signInHref: `${AUTH_PATHS.interaction}/${details.uid}`,
          problem: r.problem,
          login: f.login,
        });
        return html(reply.code(400), page);
      }
      await startSession(req, reply, r.user);
      return finish(req, reply, { login: { accountId: r.user.id } });
    });
    scope.post(`${base}/confirm`, csrf, async (req, reply) => {
      const details = await (await o.provider()).interactionDetails(req.raw, reply.raw);
      const accountId = details.session?.accountId;
      if (details.prompt.name !== "consent" || !accountId)
        return finish(req, reply, { error: "login_required", error_description: "no signed-in user" });
      const provider = await o.provider();
      const grant =
        (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
        new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details.missingOIDCScope;
      if (Array.isArray(missing)) grant.addOIDCScope(missing.join(" "));
      const grantId = await grant.save();
      return finish(req, reply, { consent: { grantId } });
    });
    scope.post(`${base}/abort`, csrf, async (req, reply) =>
      finish(req, reply, { error: "access_denied", error_description: "The user denied access." }),
    );
  });
}
