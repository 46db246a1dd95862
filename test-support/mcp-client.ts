// The official MCP SDK client, as tests use it: with a bearer credential, or walking the OAuth flow by itself from
// the endpoint's 401 (protected-resource metadata → authorization server → dynamic registration → PKCE) against an
// authorization server that approves without a person (the mock's), following the authorization redirect itself.

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

const REDIRECT = "http://127.0.0.1:7777/mcp-client/callback";

export async function mcpClientWithKey(endpoint: string, credential: string): Promise<Client> {
  const client = new Client({ name: "plumbline-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  await client.connect(transport);
  return client;
}

/** An OAuth client provider kept in memory; `authorizationUrl` is where the SDK sent the "browser". */
export function memoryOAuthProvider(scope = "openid offline_access") {
  let client: OAuthClientInformationMixed | undefined;
  let tokens: OAuthTokens | undefined;
  let verifier = "";
  const provider: Omit<OAuthClientProvider, "tokens"> & { authorizationUrl?: URL; tokens(): OAuthTokens | undefined } =
    {
      get redirectUrl() {
        return REDIRECT;
      },
      get clientMetadata(): OAuthClientMetadata {
        return {
          client_name: "plumbline MCP test",
          redirect_uris: [REDIRECT],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
          scope,
        };
      },
      clientInformation: () => client,
      saveClientInformation: (info) => {
        client = info;
      },
      tokens: () => tokens,
      saveTokens: (t) => {
        tokens = t;
      },
      redirectToAuthorization: (url) => {
        provider.authorizationUrl = url;
      },
      saveCodeVerifier: (v) => {
        verifier = v;
      },
      codeVerifier: () => verifier,
    };
  return provider;
}

/**
 * Connects through the full OAuth flow the SDK drives: the first connect meets the 401 and registers and redirects;
 * the person approves at the authorization URL (`approve`, which returns the URL it was sent back to; by default
 * the authorization server approves without a person, as the mock's does, and one redirect is followed), the code
 * is exchanged by `finishAuth`, and the second connect carries the access token.
 */
export async function mcpClientThroughOAuth(
  endpoint: string,
  approve: (authorizationUrl: URL, redirectUri: string) => Promise<string> = autoApproved,
) {
  const provider = memoryOAuthProvider();
  const connect = async () => {
    const client = new Client({ name: "plumbline-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider });
    await client.connect(transport);
    return { client, transport };
  };
  const first = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider });
  const unauthorized = await new Client({ name: "plumbline-test", version: "1.0.0" }).connect(first).then(
    () => null,
    (err: Error) => err,
  );
  if (!unauthorized || !provider.authorizationUrl)
    throw new Error(`expected the SDK to start the OAuth flow, got ${unauthorized}`);
  const back = await approve(provider.authorizationUrl, REDIRECT);
  const code = new URL(back).searchParams.get("code");
  if (!code) throw new Error(`the authorization step came back without a code: ${back}`);
  await first.finishAuth(code);
  const { client } = await connect();
  return { client, provider, authorizationUrl: provider.authorizationUrl };
}

async function autoApproved(authorizationUrl: URL): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered ${res.status} without a redirect`);
  return location;
}
