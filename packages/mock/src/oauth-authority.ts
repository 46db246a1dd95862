// The mock's OAuth 2.1 authorization server, without HTTP (oauth-routes.ts translates): dynamic client registration
// (RFC 7591), the authorization code grant with PKCE S256 only (RFC 7636; OAuth 2.1 §4.1), refresh-token rotation
// (OAuth 2.1 §4.3.1), revocation (RFC 7009). Authorization is auto-approved for one account (it is a mock; the
// admin API picks which). Access tokens authenticate through the same accounts as API keys ("OAuth tokens map to
// the same user and credit balance", interface-spec "Authentication" 2); lifetimes run on the mock clock.

import { createHash, randomBytes } from "node:crypto";
import { fetchedMetadataProblem, redirectUriMatches, redirectUrisProblem } from "@plumbline-kit/platform/redirect-uris";
import type { Account, AccountStore } from "@plumbline-kit/platform/stores";
import type { MemoryAccounts } from "./memory-accounts.ts";

export const SCOPES = ["openid", "offline_access"];
export const GRANT_TYPES = ["authorization_code", "refresh_token"];
/** how many codes or tokens of one kind are kept before expired ones are swept out */
const SWEEP_ABOVE = 10_000;
/**
 * The most codes or tokens of one kind, and registered clients, kept even when live: past it the oldest go (a
 * token dropped that way answers as an unknown one), so a long-running mock under OAuth traffic keeps bounded memory.
 */
export const OAUTH_MAX_KEPT = 50_000;
/** access tokens carry this prefix, so an API key lookup costs no token lookup and the reverse */
const ACCESS_PREFIX = "plbat_";

/** An RFC 6749 §5.2 / RFC 7591 §3.2.2 error as a value: the routes send it as `{error, error_description}`. */
export interface OAuthError {
  ok: false;
  status: number;
  error: string;
  description: string;
}
export type OAuthResult<T> = { ok: true; value: T } | OAuthError;

const fail = (status: number, error: string, description: string): OAuthError => ({
  ok: false,
  status,
  error,
  description,
});

export interface OAuthClient {
  client_id: string;
  client_id_issued_at: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
  scope: string;
}

interface Grant {
  id: string;
  clientId: string;
  accountId: string;
  userId: string | null;
  scope: string;
  revoked: boolean;
}

interface PendingCode {
  grant: Grant;
  redirectUri: string;
  challenge: string;
  expiresAt: number;
  used: boolean;
}

interface Token {
  grant: Grant;
  expiresAt: number;
  revoked: boolean;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

export interface AuthorizeRequest {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  state?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** Where the user agent goes: the client's redirect URI with these parameters, or (no trustworthy URI) an error page. */
export type AuthorizeOutcome = { redirect: string; params: Record<string, string> } | { error: OAuthError };

export interface OAuthSettings {
  /** the key of the account authorize() grants; null: the first account that is not revoked */
  grantKey: string | null;
  /** what the simulated person answers on the consent screen: approve (default), or deny (access_denied) */
  consent: "approve" | "deny";
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  codeTtlSeconds: number;
}

const DEFAULTS: OAuthSettings = {
  grantKey: null,
  consent: "approve",
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  codeTtlSeconds: 60,
};

const secret = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export interface OAuthAuthority {
  register(metadata: Record<string, unknown>): OAuthResult<OAuthClient>;
  authorize(request: AuthorizeRequest, issuer: string): AuthorizeOutcome;
  token(form: Record<string, string | undefined>): OAuthResult<TokenResponse>;
  revoke(form: Record<string, string | undefined>): OAuthResult<null>;
  /** the account an access token stands for, or null (unknown, expired, revoked) */
  authenticate(credential: string): Account | null;
  isAccessToken(credential: string): boolean;
  /** `stored`: codes and tokens held, live or not yet swept (bounded: see sweep) */
  settings(): OAuthSettings & { clients: number; activeAccessTokens: number; stored: number };
  /** what is held of each kind, each kept to about OAUTH_MAX_KEPT */
  stats(): { clients: number; codes: number; accessTokens: number; refreshTokens: number; maxEach: number };
  configure(patch: Partial<OAuthSettings>): OAuthResult<OAuthSettings>;
  clear(): void;
}

export function createOAuthAuthority(accounts: MemoryAccounts, now: () => number): OAuthAuthority {
  const clients = new Map<string, OAuthClient>();
  const codes = new Map<string, PendingCode>();
  const access = new Map<string, Token>();
  const refresh = new Map<string, Token>();
  let settings: OAuthSettings = { ...DEFAULTS };

  const grantedAccount = () => {
    const all = accounts.list().filter((a) => !a.revoked);
    return settings.grantKey === null ? all[0] : all.find((a) => a.key === settings.grantKey);
  };

  /**
   * Drops expired codes and tokens once the maps grow, so a long-running mock keeps bounded memory; live ones only
   * past OAUTH_MAX_KEPT, the oldest first (a rotated refresh token should stay known for its lifetime to catch its
   * reuse, so the bound is well above what a test suite issues), and the oldest clients past the same bound.
   */
  const kinds = [access, refresh, codes].map((m) => ({ m: m as Map<string, { expiresAt: number }>, nextAt: 0 }));
  const sweep = () => {
    const t = now();
    for (const kind of kinds) {
      const { m } = kind;
      if (m.size <= SWEEP_ABOVE) continue;
      // at most one scan per second of the mock clock: with more live than SWEEP_ABOVE, a scan per issue would be
      // quadratic
      if (t >= kind.nextAt) {
        for (const [k, v] of m) if (v.expiresAt <= t) m.delete(k);
        kind.nextAt = t + 1000;
      }
      if (m.size <= OAUTH_MAX_KEPT) continue;
      // a tenth under the bound, so the next drop is a tenth of the bound of issues away
      for (const k of m.keys()) {
        if (m.size <= OAUTH_MAX_KEPT - OAUTH_MAX_KEPT / 10) break;
        m.delete(k);
      }
    }
    if (clients.size > OAUTH_MAX_KEPT)
      for (const k of clients.keys()) {
        if (clients.size <= OAUTH_MAX_KEPT - OAUTH_MAX_KEPT / 10) break;
        clients.delete(k);
      }
  };

  const issue = (grant: Grant): TokenResponse => {
    sweep();
    const at = secret(ACCESS_PREFIX);
    access.set(at, { grant, expiresAt: now() + settings.accessTokenTtlSeconds * 1000, revoked: false });
    const out: TokenResponse = {
      access_token: at,
      token_type: "Bearer",
      expires_in: settings.accessTokenTtlSeconds,
      scope: grant.scope,
    };
    // "A refresh token is issued only when the scope `offline_access` is requested" (interface-spec "OAuth flow")
    if (grant.scope.split(" ").includes("offline_access")) {
      const rt = secret("plbrt_");
      refresh.set(rt, { grant, expiresAt: now() + settings.refreshTokenTtlSeconds * 1000, revoked: false });
      out.refresh_token = rt;
    }
    return out;
  };

  const live = (t: Token | undefined) => t && !t.revoked && !t.grant.revoked && t.expiresAt > now();

  return {
    // RFC 7591 §2, §3.2: public clients only (token_endpoint_auth_method "none"; "Public clients must not rely on a
    // client secret", interface-spec "OAuth flow" 3)
    register(m) {
      const uris = m.redirect_uris;
      const problem = redirectUrisProblem(uris);
      if (problem) return fail(400, "invalid_redirect_uri", problem);
      const fetched = fetchedMetadataProblem(m);
      if (fetched) return fail(400, "invalid_client_metadata", fetched);
      const method = m.token_endpoint_auth_method ?? "none";
      if (method !== "none")
        return fail(400, "invalid_client_metadata", "only public clients: token_endpoint_auth_method must be none");
      const grantTypes = m.grant_types ?? ["authorization_code"];
      if (!Array.isArray(grantTypes) || grantTypes.some((g) => !GRANT_TYPES.includes(g)))
        return fail(400, "invalid_client_metadata", `grant_types must be among ${GRANT_TYPES.join(", ")}`);
      const responseTypes = m.response_types ?? ["code"];
      if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== "code"))
        return fail(400, "invalid_client_metadata", "response_types must be [code] (no implicit grant)");
      const scope = m.scope ?? SCOPES.join(" ");
      if (typeof scope !== "string" || scope.split(" ").some((s) => !SCOPES.includes(s)))
        return fail(400, "invalid_client_metadata", `scope must be among ${SCOPES.join(" ")}`);
      if (m.client_name !== undefined && typeof m.client_name !== "string")
        return fail(400, "invalid_client_metadata", "client_name must be a string");
      const client: OAuthClient = {
        client_id: secret("plbclient_"),
        client_id_issued_at: Math.floor(now() / 1000),
        ...(m.client_name === undefined ? {} : { client_name: m.client_name as string }),
        redirect_uris: uris as string[],
        grant_types: grantTypes as string[],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope,
      };
      sweep();
      clients.set(client.client_id, client);
      return { ok: true, value: client };
    },

    // RFC 6749 §4.1.1-4.1.2.1; RFC 7636 §4.3-4.4; RFC 9207 (iss)
    authorize(r, issuer) {
      const client = r.client_id ? clients.get(r.client_id) : undefined;
      // §4.1.2.1: with no valid client or redirect URI the user agent is not redirected
      if (!client) return { error: fail(400, "invalid_request", "unknown or missing client_id") };
      const redirect = r.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
      // exact, but for a loopback http URI on another port (RFC 8252 §7.3), as the reference's server matches
      if (!redirect || !redirectUriMatches(redirect, client.redirect_uris))
        return { error: fail(400, "invalid_request", "redirect_uri does not match a registered one") };
      const back = (error: string, description: string): AuthorizeOutcome => ({
        redirect,
        params: { error, error_description: description, ...(r.state ? { state: r.state } : {}), iss: issuer },
      });
      if (r.response_type !== "code")
        return back("unsupported_response_type", "response_type must be code (the implicit grant is not offered)");
      if (!r.code_challenge) return back("invalid_request", "code_challenge is required (PKCE)");
      if (r.code_challenge_method !== "S256") return back("invalid_request", "code_challenge_method must be S256");
      if (!/^[A-Za-z0-9_-]{43}$/.test(r.code_challenge))
        return back("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)");
      const scope = r.scope ?? client.scope;
      const allowed = client.scope.split(" ");
      if (scope.split(" ").some((s) => !allowed.includes(s)))
        return back("invalid_scope", `scope must be among the registered ${client.scope}`);
      // RFC 6749 §4.1.2.1: the resource owner denied the request (scripted through the admin API)
      if (settings.consent === "deny") return back("access_denied", "the user denied access (PUT /__mock/oauth)");
      const account = grantedAccount();
      if (!account) return back("access_denied", "the mock has no account to grant (see /__mock/oauth)");
      const grant: Grant = {
        id: secret(""),
        clientId: client.client_id,
        accountId: account.id,
        userId: account.userId,
        scope,
        revoked: false,
      };
      sweep();
      const code = secret("plbcode_");
      codes.set(code, {
        grant,
        redirectUri: redirect,
        challenge: r.code_challenge,
        expiresAt: now() + settings.codeTtlSeconds * 1000,
        used: false,
      });
      return { redirect, params: { code, ...(r.state ? { state: r.state } : {}), iss: issuer } };
    },

    // RFC 6749 §4.1.3, §6, §5.1-5.2; RFC 7636 §4.5-4.6
    token(f) {
      const client = f.client_id ? clients.get(f.client_id) : undefined;
      if (!f.grant_type) return fail(400, "invalid_request", "grant_type is required");
      if (!GRANT_TYPES.includes(f.grant_type))
        return fail(400, "unsupported_grant_type", `grant_type must be one of ${GRANT_TYPES.join(", ")}`);
      if (!client) return fail(401, "invalid_client", "unknown or missing client_id");
      if (!client.grant_types.includes(f.grant_type))
        return fail(400, "unauthorized_client", `the client did not register grant_type ${f.grant_type}`);
      if (f.grant_type === "authorization_code") {
        if (!f.code || !f.code_verifier) return fail(400, "invalid_request", "code and code_verifier are required");
        const pending = codes.get(f.code);
        if (!pending || pending.grant.clientId !== client.client_id || pending.expiresAt <= now())
          return fail(400, "invalid_grant", "the code is unknown, expired or issued to another client");
        if (pending.used) {
          // §4.1.2: a code used twice revokes what it granted
          pending.grant.revoked = true;
          return fail(400, "invalid_grant", "the code was already used; its tokens are revoked");
        }
        if (f.redirect_uri !== undefined && f.redirect_uri !== pending.redirectUri)
          return fail(400, "invalid_grant", "redirect_uri differs from the one of the authorization request");
        if (!/^[A-Za-z0-9._~-]{43,128}$/.test(f.code_verifier) || s256(f.code_verifier) !== pending.challenge)
          return fail(400, "invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)");
        pending.used = true;
        return { ok: true, value: issue(pending.grant) };
      }
      if (!f.refresh_token) return fail(400, "invalid_request", "refresh_token is required");
      const old = refresh.get(f.refresh_token);
      if (!old || old.grant.clientId !== client.client_id)
        return fail(400, "invalid_grant", "the refresh token is unknown or issued to another client");
      if (old.revoked) {
        // OAuth 2.1 §4.3.1: a rotated refresh token presented again means it leaked; end the whole grant
        old.grant.revoked = true;
        return fail(400, "invalid_grant", "the refresh token was already used; the grant is revoked");
      }
      if (!live(old)) return fail(400, "invalid_grant", "the refresh token is expired or revoked");
      if (f.scope?.split(" ").some((s) => !old.grant.scope.split(" ").includes(s)))
        return fail(400, "invalid_scope", "a refresh cannot widen the granted scope");
      old.revoked = true;
      return { ok: true, value: issue(old.grant) };
    },

    // RFC 7009 §2.1-2.2: an unknown token is answered 200 too
    revoke(f) {
      if (!f.token) return fail(400, "invalid_request", "token is required");
      const client = f.client_id ? clients.get(f.client_id) : undefined;
      if (!client) return fail(401, "invalid_client", "unknown or missing client_id");
      const a = access.get(f.token);
      const r = refresh.get(f.token);
      const t = a ?? r;
      if (!t) return { ok: true, value: null };
      if (t.grant.clientId !== client.client_id)
        return fail(401, "invalid_client", "the token was issued to another client");
      // a refresh token takes the access tokens of its grant with it (§2.1 SHOULD); an access token goes alone
      if (r) r.grant.revoked = true;
      else t.revoked = true;
      return { ok: true, value: null };
    },

    authenticate(credential) {
      const t = access.get(credential);
      if (!live(t) || !t) return null;
      return { id: t.grant.accountId, userId: t.grant.userId, credentialType: "oauth", clientId: t.grant.clientId };
    },
    isAccessToken: (credential) => credential.startsWith(ACCESS_PREFIX),

    settings: () => ({
      ...settings,
      clients: clients.size,
      activeAccessTokens: [...access.values()].filter((t) => live(t)).length,
      stored: access.size + refresh.size + codes.size,
    }),
    stats: () => ({
      clients: clients.size,
      codes: codes.size,
      accessTokens: access.size,
      refreshTokens: refresh.size,
      maxEach: OAUTH_MAX_KEPT,
    }),
    configure(patch) {
      const next = { ...settings, ...patch };
      if (next.consent !== "approve" && next.consent !== "deny")
        return fail(400, "invalid_request", "consent must be approve or deny");
      if (next.grantKey !== null && !accounts.list().some((a) => a.key === next.grantKey))
        return fail(400, "invalid_request", `no account with key ${next.grantKey}`);
      for (const k of ["accessTokenTtlSeconds", "refreshTokenTtlSeconds", "codeTtlSeconds"] as const)
        if (!Number.isSafeInteger(next[k]) || next[k] < 1) return fail(400, "invalid_request", `${k} must be >= 1`);
      settings = next;
      return { ok: true, value: settings };
    },
    clear() {
      clients.clear();
      codes.clear();
      access.clear();
      refresh.clear();
      for (const kind of kinds) kind.nextAt = 0;
      settings = { ...DEFAULTS };
    },
  };
}

/** The account store the API authenticates with: access tokens first (by their prefix), else API keys. */
export function withOAuthTokens(accounts: MemoryAccounts, oauth: OAuthAuthority): AccountStore {
  return {
    // at once, like the accounts' own (stores.ts: no microtask turn per call)
    authenticate: (credential) =>
      oauth.isAccessToken(credential) ? oauth.authenticate(credential) : accounts.authenticate(credential),
    balance: (accountId) => accounts.balance(accountId),
    hold: (accountId, credits, meta) => accounts.hold(accountId, credits, meta),
    settle: (hold) => accounts.settle(hold),
    release: (hold) => accounts.release(hold),
    refund: (accountId, requestId) => accounts.refund(accountId, requestId),
  };
}
