// What is a secret when plumbline writes a request down (a log line of the mock or the reference, a recording or a
// report of the proxy), and how it is written instead: one rule for every server and client, so a key sent in the
// query string by mistake, or an OAuth code, verifier or token, is never kept in clear anywhere (issue 38).

export const REDACTED = "[REDACTED]";

/** Query parameters and JSON fields named like a secret (compared lower-case, without `-` and `_`). */
const SECRET_NAMES = new Set([
  "apikey",
  "key",
  "token",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "authtoken",
  "sessiontoken",
  "secret",
  "clientsecret",
  "password",
  "passwd",
  "privatekey",
  "credential",
  "credentials",
  "codeverifier",
]);

/**
 * OAuth 2.0 parameters that carry a grant or prove one (RFC 6749 4.1, RFC 7636, RFC 7523, RFC 8628, RFC 8693), in
 * a query string or a form-encoded body. `code` is only a secret there: in a JSON body it is the error code.
 */
const OAUTH_SECRET_PARAMETERS = new Set([
  "code",
  "codechallenge",
  "devicecode",
  "assertion",
  "clientassertion",
  "subjecttoken",
  "actortoken",
]);

const normal = (name: string) => name.toLowerCase().replace(/[-_]/g, "");

/** A header, JSON field or parameter name that holds a secret wherever it appears. */
export function isSecretName(name: string): boolean {
  const n = normal(name);
  return SECRET_NAMES.has(n) || n.endsWith("apikey") || n.endsWith("secret") || n.endsWith("password");
}

/** A query-string or form-encoded parameter that holds a secret: the names above and the OAuth grant parameters. */
export function isSecretParameter(name: string): boolean {
  return isSecretName(name) || OAUTH_SECRET_PARAMETERS.has(normal(name));
}

/**
 * A JSON field that holds a secret: a secret name, an OAuth grant parameter, and `code` in an OAuth token request
 * (an object with `grant_type`) only; elsewhere `code` is the contract's error code.
 */
export function isSecretField(name: string, object: Record<string, unknown>): boolean {
  const n = normal(name);
  if (n === "code") return typeof object.grant_type === "string";
  return isSecretParameter(name);
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
}

/**
 * A query string or form-encoded body (`a=1&code=xyz`, no leading `?`) with the value of every secret parameter
 * replaced by `[REDACTED]`; everything else is kept byte for byte. `found` is told each secret's name and decoded
 * value (to scrub it from elsewhere too).
 */
export function redactParameters(text: string, found?: (name: string, value: string) => void): string {
  if (text === "") return text;
  let changed = false;
  const parts = text.split("&").map((part) => {
    const eq = part.indexOf("=");
    const name = decoded(eq < 0 ? part : part.slice(0, eq));
    if (eq < 0 || !isSecretParameter(name)) return part;
    found?.(name, decoded(part.slice(eq + 1)));
    changed = true;
    return `${part.slice(0, eq)}=${REDACTED}`;
  });
  return changed ? parts.join("&") : text;
}

/**
 * A URL or a request target (`/search?api_key=…`, `https://host/cb?code=…#frag`) with its secret query parameters
 * redacted (the fragment too, where an implicit grant puts its token).
 */
export function redactUrl(url: string, found?: (name: string, value: string) => void): string {
  const q = url.indexOf("?");
  const h = url.indexOf("#");
  if (q < 0 && h < 0) return url;
  const end = h < 0 ? url.length : h;
  const base = url.slice(0, q < 0 || q > end ? end : q);
  const query = q < 0 || q > end ? null : url.slice(q + 1, end);
  const fragment = h < 0 ? null : url.slice(h + 1);
  return (
    base +
    (query === null ? "" : `?${redactParameters(query, found)}`) +
    (fragment === null ? "" : `#${redactParameters(fragment, found)}`)
  );
}
