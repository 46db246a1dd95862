// A minimal OAuth client for the authorization server's tests: registration, PKCE, token-endpoint form posts.
import { createHash, randomBytes } from "node:crypto";
import { Agent } from "undici";

/** fetch over a connection pool of its own (a server restarted in-process leaves the global pool's sockets dead) */
export function freshFetch(): typeof fetch {
  const dispatcher = new Agent();
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function register(base: string, redirectUris: string[], scope: string) {
  const res = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "test client", redirect_uris: redirectUris, scope }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { client_id: string };
}

export async function tokenRequest(base: string, fetchWith: typeof fetch, fields: Record<string, string>) {
  const res = await fetchWith(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
