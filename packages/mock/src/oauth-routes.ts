// The mock's authorization server over HTTP, at the mock's own base URL ({auth_url} = {base_url}; interface-spec
// "Discovery endpoints", "OAuth registration contract", "OAuth flow"). These are the mock's routes, like /__mock,
// not contract operations: OAuth errors use the RFC shape `{error, error_description}`, not the contract's.

import { baseUrlOf } from "@plumbline-kit/platform/request-state";
import type { FastifyInstance, FastifyReply } from "fastify";
import { GRANT_TYPES, type OAuthAuthority, type OAuthError, SCOPES } from "./oauth-authority.ts";

export const OAUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  register: "/oauth/register",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  revoke: "/oauth/token/revoke",
} as const;

type Form = Record<string, string | undefined>;

/** RFC 6749 §5.1: token answers are never cached. */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

function sendOAuthError(reply: FastifyReply, e: OAuthError): FastifyReply {
  // RFC 6749 §5.2: invalid_client answers 401 with a challenge when the client tried to authenticate
  const headers = e.status === 401 ? { ...NO_STORE, "www-authenticate": 'Basic realm="oauth"' } : NO_STORE;
  return reply.code(e.status).headers(headers).send({ error: e.error, error_description: e.description });
}

/** RFC 8414 §2 metadata, with the interface's registration-contract members. */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    registration_endpoint: `${issuer}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    scopes_supported: SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: GRANT_TYPES,
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs`,
    // interface-spec "OAuth registration contract"
    registration_methods_supported: ["oauth_dynamic_client_registration"],
    identity_types_supported: ["oauth_user_authorization"],
    credential_types_supported: ["oauth_access_token", "oauth_refresh_token"],
  };
}

export async function oauthRoutes(app: FastifyInstance, oauth: OAuthAuthority, publicUrl?: string) {
  await app.register(async (scope) => {
    // the token and revocation endpoints take form bodies (RFC 6749 §4.1.3, RFC 7009 §2.1); only in this scope
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const form = (body: unknown): Form =>
      body && typeof body === "object" && !Array.isArray(body) ? (body as Form) : {};

    scope.get(OAUTH_PATHS.metadata, async (req) => authorizationServerMetadata(baseUrlOf(req, publicUrl)));

    scope.post(OAUTH_PATHS.register, async (req, reply) => {
      const r = oauth.register(form(req.body));
      return r.ok ? reply.code(201).headers(NO_STORE).send(r.value) : sendOAuthError(reply, r);
    });

    scope.get(OAUTH_PATHS.authorize, async (req, reply) => {
      const q = req.query as Form;
      const outcome = oauth.authorize(q, baseUrlOf(req, publicUrl));
      if ("error" in outcome) return sendOAuthError(reply, outcome.error);
      const target = new URL(outcome.redirect);
      for (const [k, v] of Object.entries(outcome.params)) target.searchParams.set(k, v);
      return reply.code(302).header("location", target.href).header("cache-control", "no-store").send();
    });

    scope.post(OAUTH_PATHS.token, async (req, reply) => {
      const r = oauth.token(form(req.body));
      return r.ok ? reply.headers(NO_STORE).send(r.value) : sendOAuthError(reply, r);
    });

    scope.post(OAUTH_PATHS.revoke, async (req, reply) => {
      const r = oauth.revoke(form(req.body));
      return r.ok ? reply.code(200).headers(NO_STORE).send() : sendOAuthError(reply, r);
    });
  });
}
