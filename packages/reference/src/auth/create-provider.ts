// The authorization server (issue 15; interface-spec "OAuth registration contract", "OAuth flow"): oidc-provider,
// a certified OpenID/OAuth implementation, configured to the contract. Authorization Code with PKCE S256 only (no
// implicit grant), dynamic registration of public clients (token_endpoint_auth_method none, no initial access
// token, no e-mail), a refresh token only with offline_access, refresh rotation (oidc-provider revokes the whole
// grant when a rotated refresh token is presented again), revocation (RFC 7009), opaque access tokens stored in the
// database (so the API can refuse a revoked one at once). The interaction pages (sign in, consent) are ours.

import { fetchedMetadataProblem, redirectUriMatches, redirectUrisProblem } from "@plumbline-kit/platform/redirect-uris";
import type { Kysely } from "kysely";
import Provider, { errors } from "oidc-provider";
import { AUTH_PATHS, OAUTH_SCOPES } from "./auth-paths.ts";
import type { AuthDatabase } from "./auth-schema.ts";
import type { AuthSecrets } from "./auth-secrets.ts";
import { createOidcAdapterClass } from "./oidc-adapter.ts";
import { renderErrorPage } from "./pages-html.ts";
import type { UserStore } from "./user-store.ts";

export interface ProviderOptions {
  issuer: string;
  db: Kysely<AuthDatabase>;
  users: UserStore;
  secrets: AuthSecrets;
  /** behind a proxy that terminates TLS: trust X-Forwarded-Proto/-Host (the issuer was given explicitly) */
  proxy: boolean;
  accessTokenTtlSeconds?: number;
  /** origins the API and its MCP endpoint are served from, beside the issuer's (RFC 8707 resources it accepts) */
  resourceOrigins?: string[];
}

/** A resource of this service: on the issuer's origin, or on an origin the deployment serves the API from. */
function ownResource(resource: string, issuer: string, origins: readonly string[] = []): boolean {
  try {
    const origin = new URL(resource).origin;
    return origin === new URL(issuer).origin || origins.some((o) => new URL(o).origin === origin);
  } catch {
    return false;
  }
}

export function createProvider(o: ProviderOptions): Provider {
  const provider = new Provider(o.issuer, {
    adapter: createOidcAdapterClass(o.db),
    clients: [],
    async findAccount(_ctx: unknown, sub: string) {
      const user = await o.users.byId(sub);
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "RS256",
    },
    // oidc-provider accepts plain http redirect URIs for web clients using the code flow; the contract asks for
    // loopback or https ones. Its validator hook sees the whole metadata; it is hung on a property it must not miss.
    extraClientMetadata: {
      properties: ["software_id"],
      // It runs before oidc-provider's own type checks, so it sees the metadata as sent (any JSON): what is not a
      // list of URIs is refused here, in RFC 7591's shape (a description starting "redirect_uris" makes
      // InvalidClientMetadata answer invalid_redirect_uri), never thrown at as a TypeError (a 500).
      validator(_ctx: unknown, key: string, _value: unknown, metadata: Record<string, unknown>) {
        if (key !== "software_id") return;
        const problem = redirectUrisProblem(metadata.redirect_uris);
        if (problem) throw new errors.InvalidClientMetadata(problem);
        const fetched = fetchedMetadataProblem(metadata);
        if (fetched) throw new errors.InvalidClientMetadata(fetched);
      },
    },
    // public clients only ("Public clients must not rely on a client secret", interface-spec "OAuth flow" 3)
    clientAuthMethods: ["none"],
    responseTypes: ["code"],
    scopes: OAUTH_SCOPES,
    claims: { openid: ["sub"] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // RFC 8707: MCP clients name the resource they want a token for (the MCP authorization spec); the resources
      // of this service (its REST base, {mcp_url}/mcp, on the issuer's origin or one the deployment names) get
      // opaque tokens the API looks up, any other resource is refused (invalid_target)
      resourceIndicators: {
        enabled: true,
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx: unknown, resourceIndicator: string) {
          if (!ownResource(resourceIndicator, o.issuer, o.resourceOrigins)) throw new errors.InvalidTarget();
          return { scope: "", audience: resourceIndicator, accessTokenFormat: "opaque" };
        },
      },
    },
    routes: {
      authorization: AUTH_PATHS.authorize,
      token: AUTH_PATHS.token,
      registration: AUTH_PATHS.register,
      revocation: AUTH_PATHS.revoke,
      jwks: AUTH_PATHS.jwks,
      end_session: "/oauth/session/end",
      introspection: "/oauth/token/introspection",
      userinfo: "/oauth/me",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      pushed_authorization_request: "/oauth/request",
      backchannel_authentication: "/oauth/backchannel",
      challenge: "/oauth/challenge",
      credential: "/oauth/credential",
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${AUTH_PATHS.interaction}/${interaction.uid}`,
    },
    cookies: {
      keys: o.secrets.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: "lax" },
      short: { signed: true, httpOnly: true, sameSite: "lax" },
    },
    jwks: { keys: o.secrets.signingKeys },
    ttl: {
      AccessToken: o.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 30 * 24 * 3600,
      Grant: 365 * 24 * 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
    },
    // every refresh rotates (OAuth 2.1 §4.3.1 for public clients), so a reused one is detected
    rotateRefreshToken: true,
    discovery: {
      service_documentation: `${o.issuer.replace(/\/$/, "")}/docs`,
      // interface-spec "OAuth registration contract"
      registration_methods_supported: ["oauth_dynamic_client_registration"],
      identity_types_supported: ["oauth_user_authorization"],
      credential_types_supported: ["oauth_access_token", "oauth_refresh_token"],
    },
    async renderError(ctx: { type: string; body: string }, out: { error: string; error_description?: string }) {
      ctx.type = "html";
      ctx.body = renderErrorPage(out.error, out.error_description ?? "");
    },
  });
  provider.proxy = o.proxy;
  // oidc-provider mints a client_secret when the request leaves token_endpoint_auth_method out, though the default
  // (and only) method is none: a public client gets no secret it could be tempted to rely on
  provider.use(async (ctx: { path: string; status: number; body: unknown }, next: () => Promise<void>) => {
    await next();
    if (ctx.path !== AUTH_PATHS.register && !ctx.path.startsWith(`${AUTH_PATHS.register}/`)) return;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (body && typeof body === "object" && body.token_endpoint_auth_method === "none") {
      delete body.client_secret;
      delete body.client_secret_expires_at;
    }
  });
  // interface-spec "OAuth flow" rules: exact matching, and any port on loopback for native clients (RFC 8252 §7.3)
  provider.Client.prototype.redirectUriAllowed = function (this: { redirectUris: string[] }, value: string) {
    return redirectUriMatches(value, this.redirectUris);
  };
  return provider;
}
