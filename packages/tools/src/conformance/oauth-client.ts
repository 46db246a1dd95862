// The OAuth client the checks play (interface-spec "OAuth flow (Authorization Code with PKCE)"; RFC 9728, 8414,
// 7591, 7636, 6749, 7009): discovery, dynamic registration of a public client, the authorization request (answered
// by an auto-approving server's redirect, or by a person in headless Chromium when the server shows a sign-in
// page), and form posts to the token and revocation endpoints. Every request goes through the run's recorder.
import { createHash, randomBytes } from "node:crypto";
import { describe, json, status } from "./check-helpers.ts";
import type { ConsentBrowser } from "./oauth-consent-browser.ts";
import type { Exchange, RunContext } from "./types.ts";

export type Json = Record<string, unknown>;
/** never contacted: the redirect is read from the Location header, or caught in the browser (a port Chromium allows) */
export const REDIRECT_URI = "http://127.0.0.1:47009/plumbline-conformance/callback";
const FORM = "application/x-www-form-urlencoded";

/** RFC 8414 §3: the well-known suffix goes between the issuer's host and its path. */
export function authorizationServerMetadataUrl(issuer: string): string {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, "");
  return `${u.origin}/.well-known/oauth-authorization-server${path}`;
}

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function postForm(ctx: RunContext, by: string, url: string, fields: Record<string, string>) {
  return ctx.http.call(by, "POST", url, {
    auth: "none",
    contentType: FORM,
    raw: new URLSearchParams(fields).toString(),
  });
}

export async function register(ctx: RunContext, by: string, meta: Json, scope: string) {
  const exchange = await ctx.http.call(by, "POST", String(meta.registration_endpoint), {
    auth: "none",
    body: {
      client_name: "plumbline conformance",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope,
    },
  });
  const clientId = json<{ client_id?: unknown }>(exchange)?.client_id;
  return { exchange, clientId: status(exchange) === 201 && typeof clientId === "string" ? clientId : null };
}

export function authorizeUrl(meta: Json, params: Record<string, string | undefined>): string {
  const url = new URL(String(meta.authorization_endpoint));
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

export interface Authorization {
  /** the authorization request as the client sent it (its answer: a redirect, or the sign-in page) */
  exchange: Exchange;
  /** where the user agent was sent back: the redirect URI with its parameters; null when it never was */
  back: URL | null;
  /** why the flow could not be walked (no person to consent, no browser): the checks skip with it */
  skip?: string;
  /** set with skip: a person's account is the missing precondition */
  skipKind?: "oauth-account";
  /** how the consent went (browser), for the report */
  notes: string[];
}

/**
 * The authorization request. An auto-approving server (the mock) redirects at once; a server that shows pages
 * gets a person: headless Chromium signs in with --oauth-user/--oauth-password and approves.
 */
export async function authorize(
  ctx: RunContext,
  by: string,
  url: string,
  browser: ConsentBrowser | null,
): Promise<Authorization> {
  const exchange = await ctx.http.call(by, "GET", url, { auth: "none", redirect: "manual" });
  const s = status(exchange) ?? 0;
  const location = exchange.response?.headers.location;
  const target = location ? new URL(location, url) : null;
  if (s >= 300 && s < 400 && target && `${target.origin}${target.pathname}` === REDIRECT_URI)
    return { exchange, back: target, notes: [] };
  if (s >= 400 || (s < 300 && !/html/.test(exchange.response?.contentType ?? "")))
    return { exchange, back: null, notes: [] };
  if (!browser)
    return {
      exchange,
      back: null,
      notes: [],
      skip: `the authorization endpoint wants a person to sign in and approve (${describe(exchange)}); give --oauth-user and --oauth-password to consent in headless Chromium`,
      skipKind: "oauth-account",
    };
  const outcome = await browser.consent({ authorizeUrl: url, redirectUri: REDIRECT_URI });
  const notes = outcome.trail.map((t) => `browser: ${t}`);
  if (outcome.problem && !outcome.redirectedTo)
    return {
      exchange,
      back: null,
      notes,
      skip: `consent in headless Chromium: ${outcome.problem}`,
      skipKind: "oauth-account",
    };
  return { exchange, back: outcome.redirectedTo ? new URL(outcome.redirectedTo) : null, notes };
}

export function tokenGrant(ctx: RunContext, by: string, meta: Json, fields: Record<string, string>) {
  return postForm(ctx, by, String(meta.token_endpoint), fields);
}

export const tokensOf = (ex: Exchange) =>
  json<{ access_token?: unknown; refresh_token?: unknown; token_type?: unknown; scope?: unknown }>(ex);

export const usageWith = (ctx: RunContext, by: string, token: string) =>
  ctx.http.call(by, "GET", "/usage", { auth: { bearer: token } });

/** RFC 6749 §5.2: a refused grant is a 400 with error invalid_grant. */
export const isInvalidGrant = (ex: Exchange) => status(ex) === 400 && json<Json>(ex)?.error === "invalid_grant";

/** Refused with the invalid_token challenge (contract notes: a revoked credential → 401 invalid_token). */
export const isInvalidToken = (ex: Exchange) =>
  status(ex) === 401 && /invalid_token/.test(ex.response?.headers["www-authenticate"] ?? "");
