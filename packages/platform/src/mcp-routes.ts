// The hosted MCP endpoint, `{mcp_url}/mcp` (interface-spec "Discovery endpoints"; D-mcp-tools, D-mcp-endpoint):
// Streamable HTTP through the official MCP SDK, stateless (one server and transport per request, no session), its
// tools listed from the document and run as the REST operations. The low-level `Server` is used on purpose: it
// lists the document's JSON Schemas as they are, where `McpServer` would want them re-typed in zod.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { mcpSettings, serializeError } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { agentUrlsOf } from "./agent-urls.ts";
import { bearerCredential } from "./auth-plugin.ts";
import { callTool } from "./mcp-tool-call.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { sendError } from "./request-state.ts";
import type { Account } from "./stores.ts";

/**
 * The SDK, loaded at the first MCP request rather than with the server: its schemas (zod) took ~0.25 CPU-seconds
 * of every mock's and reference's start, most of which never see an MCP client.
 */
let sdk:
  | Promise<{
      Server: typeof import("@modelcontextprotocol/sdk/server/index.js").Server;
      Transport: typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
      types: typeof import("@modelcontextprotocol/sdk/types.js");
    }>
  | undefined;
function loadSdk() {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, transport, types]) => ({
    Server: server.Server,
    Transport: transport.WebStandardStreamableHTTPServerTransport,
    types,
  }));
  return sdk;
}

export async function mcpRoutes(app: FastifyInstance, o: PlatformOptions): Promise<void> {
  const settings = mcpSettings(o.contract);
  const byName = new Map(settings.tools.map((t) => [t.name, t]));
  const listed = settings.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));

  /** D-mcp-endpoint: 401 naming the MCP metadata, so an MCP client can start the OAuth flow by itself. */
  async function authenticate(req: FastifyRequest, reply: FastifyReply): Promise<Account | null> {
    const credential = bearerCredential(req.headers.authorization);
    const account = credential ? await o.accounts.authenticate(credential) : null;
    if (account) return account;
    const meta = `resource_metadata="${agentUrlsOf(req, o).mcpResourceMetadata}"`;
    if (credential === null)
      sendError(reply, serializeError("PLB_MISSING_CREDENTIAL"), { "www-authenticate": `Bearer ${meta}` });
    else
      sendError(reply, serializeError("PLB_INVALID_TOKEN"), {
        "www-authenticate": `Bearer error="invalid_token", ${meta}`,
      });
    return null;
  }

  async function serverFor(req: FastifyRequest): Promise<Server> {
    const { Server, types } = await loadSdk();
    const { CallToolRequestSchema, ErrorCode: JsonRpcError, ListToolsRequestSchema, McpError } = types;
    const server = new Server(
      { name: settings.serverName, title: settings.serverTitle, version: o.contract.version },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      const tool = byName.get(call.params.name);
      if (!tool) throw new McpError(JsonRpcError.InvalidParams, `Unknown tool: ${call.params.name}`);
      return callTool(app, o.contract, req, tool, call.params.arguments ?? {});
    });
    return server;
  }

  await app.register(async (scope) => {
    // the SDK reads the body itself, so a malformed one gets JSON-RPC's parse error (-32700), not REST's 400
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));

    scope.route({
      method: ["GET", "POST", "DELETE"],
      url: settings.path,
      // before the body is read: an anonymous client gets its 401 without uploading anything first
      onRequest: async (req, reply) => {
        req.account = await authenticate(req, reply);
        if (!req.account) return reply;
      },
      handler: async (req, reply) => {
        const account = req.account as Account;
        if (req.method !== "POST") {
          // stateless: no server-initiated stream to open (GET) and no session to end (DELETE)
          return reply
            .code(405)
            .header("allow", "POST")
            .type("application/json")
            .send({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null });
        }
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const request = new Request(`${agentUrlsOf(req, o).base}${req.url}`, {
          method: "POST",
          headers,
          body: typeof req.body === "string" ? req.body : "",
        });
        const server = await serverFor(req);
        const transport = new (await loadSdk()).Transport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        try {
          await server.connect(transport);
          const token = bearerCredential(req.headers.authorization) as string;
          const res = await transport.handleRequest(request, {
            authInfo: { token, clientId: account.clientId ?? account.id, scopes: [] },
          });
          reply.code(res.status);
          res.headers.forEach((value, name) => {
            reply.header(name, value);
          });
          return reply.send(Buffer.from(await res.arrayBuffer()));
        } finally {
          await server.close();
        }
      },
    });
  });
}
