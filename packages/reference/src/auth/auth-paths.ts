// Where the authorization server answers, and the scopes it grants: what the routes and pages need without loading
// oidc-provider itself (~0.4 s, loaded by create-provider.ts at the first OAuth request: auth-server.ts).
export const AUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  openidMetadata: "/.well-known/openid-configuration",
  register: "/oauth/register",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  revoke: "/oauth/token/revoke",
  jwks: "/oauth/jwks",
  interaction: "/account/interaction",
} as const;

export const OAUTH_SCOPES = ["openid", "offline_access"];
