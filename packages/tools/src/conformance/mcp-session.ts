// The suite's MCP client: the official SDK's Client over Streamable HTTP, every POST going through the suite's
// HTTP client so it is recorded (reports show it, curl reproduces it) and the credential stays redacted.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Auth } from "./http-client.ts";
import type { Exchange, RunContext } from "./types.ts";

export const MCP_PATH = "/mcp";

export interface McpSession {
  client: Client;
  /** the recorded exchanges of this session, in order */
  exchanges: Exchange[];
  close(): Promise<void>;
}

function recordingFetch(ctx: RunContext, by: string, auth: Auth, exchanges: Exchange[]) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? "GET").toUpperCase();
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    // the optional server-initiated stream (a GET the SDK opens after initializing) is not something the suite
    // judges, and a server may hold it open for the session's life: declined here as by a server without one
    if (method === "GET") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const { authorization: _sdk, "content-type": contentType, ...rest } = headers;
    const ex = await ctx.http.call(by, method, String(input), {
      auth,
      headers: rest,
      contentType,
      raw: typeof init?.body === "string" ? init.body : undefined,
      noRetry: true,
    });
    exchanges.push(ex);
    if (!ex.response) throw new TypeError(`fetch failed: ${ex.error ?? "no answer"}`);
    const body = [204, 205, 304].includes(ex.response.status) ? null : new Uint8Array(ex.raw ?? Buffer.alloc(0));
    return new Response(body, { status: ex.response.status, headers: ex.response.headers });
  };
}

/** The MCP endpoint of the target: `{mcp_url}/mcp` with `{mcp_url}` the target's base URL (Discovery endpoints). */
export function mcpEndpoint(ctx: RunContext): string {
  return `${ctx.http.target}${MCP_PATH}`;
}

/** Connects (initialize, then the initialized notification); throws what the SDK throws when that fails. */
export async function openMcpSession(ctx: RunContext, by: string, auth: Auth = "main"): Promise<McpSession> {
  const exchanges: Exchange[] = [];
  const client = new Client({ name: "plumbline-conformance", version: ctx.contract.version });
  const transport = new StreamableHTTPClientTransport(new URL(mcpEndpoint(ctx)), {
    fetch: recordingFetch(ctx, by, auth, exchanges),
  });
  try {
    await client.connect(transport);
  } catch (err) {
    await client.close().catch(() => {});
    throw Object.assign(err instanceof Error ? err : new Error(String(err)), { exchanges });
  }
  return { client, exchanges, close: () => client.close() };
}

/** The exchanges an error from openMcpSession carries (the failed initialize). */
export function exchangesOf(err: unknown): Exchange[] {
  return ((err as { exchanges?: Exchange[] } | null)?.exchanges ?? []) as Exchange[];
}
