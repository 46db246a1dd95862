// Redirect URIs of OAuth clients, as the reference's authorization server and the mock's both judge them.
// RFC 8252 §7.3: a native client listening on a loopback address registers its redirect URI once and uses
// whatever ephemeral port the system gives it each time. oidc-provider applies that rule to clients registered with
// application_type native only; the contract's native CLI clients and MCP clients mostly register without it, with a
// loopback http redirect URI, so the rule is applied to any loopback http URI. Everything else matches exactly.

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** The URI without its port when it is a loopback http URI, else null. */
export function withoutLoopbackPort(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" || !LOOPBACK_HOSTS.has(u.hostname) || u.username || u.password) return null;
  // compare the exact text after the authority, so the rest of the URI still matches exactly
  const rest = uri.slice(uri.indexOf("//") + 2).replace(/^[^/?#]*/, "");
  return `http://${u.hostname}${rest}`;
}

/** Exact match, or the same loopback http URI on another port. */
export function redirectUriMatches(presented: string, registered: readonly string[]): boolean {
  if (registered.includes(presented)) return true;
  const bare = withoutLoopbackPort(presented);
  return bare !== null && registered.some((r) => withoutLoopbackPort(r) === bare);
}

/**
 * "a loopback or HTTPS redirect URI" (interface-spec "OAuth flow" 5), absolute, without a fragment; a native app's
 * private-use scheme (RFC 8252 §7.1, with a dot) too. Null when acceptable, else why not (starting "redirect_uris",
 * the field RFC 7591's invalid_redirect_uri is about).
 */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== "string") return "redirect_uris must be strings";
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `redirect_uris: ${uri} is not an absolute URI`;
  }
  if (uri.includes("#")) return `redirect_uris: ${uri} has a fragment (RFC 6749 §3.1.2)`;
  if (u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname))) return null;
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol)) return null;
  return `redirect_uris: ${uri} is neither https nor a loopback http URI`;
}

/**
 * The registration's redirect_uris as sent (any JSON value): null when it lists at least one acceptable URI, else
 * why not. The mock's authority and the reference's server both register through it (RFC 7591 §3.2.2:
 * invalid_redirect_uri).
 */
export function redirectUrisProblem(uris: unknown): string | null {
  if (!Array.isArray(uris) || uris.length === 0) return "redirect_uris must list at least one URI";
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return problem;
  }
  return null;
}

/** Client metadata naming a URL an authorization server fetches (RFC 7591 2, OpenID Connect Registration 2). */
const FETCHED_CLIENT_METADATA = ["sector_identifier_uri", "jwks_uri"] as const;

/**
 * Why a registration naming a URL the server would fetch is refused (oidc-provider reads a sector_identifier_uri at
 * registration: a client-chosen address the server would connect to, outside the address policy; no public client of
 * this service needs one, issue 38); null when it names none. invalid_client_metadata in RFC 7591's shape. The
 * mock's authority and the reference's server both register through it. (request_uris is dropped by oidc-provider
 * while request objects are off, and ignored by the mock.)
 */
export function fetchedMetadataProblem(metadata: Record<string, unknown>): string | null {
  const field = FETCHED_CLIENT_METADATA.find((f) => metadata[f] !== undefined);
  return field ? `${field} is not supported: this server fetches no client URL` : null;
}
