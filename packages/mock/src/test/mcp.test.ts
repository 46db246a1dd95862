// The hosted MCP endpoint on the mock (issue 15; D-mcp-tools, D-mcp-endpoint): the MCP SDK's own client with an API
// key and with a token it obtains through the OAuth flow by itself; tools as the document lists them, calls charged
// as the REST operations.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpSettings } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClientThroughOAuth, mcpClientWithKey } from "../../../../test-support/mcp-client.ts";
import { BROKE, KEY, useMock } from "./harness.ts";

const h = useMock();
let client: Client;
beforeAll(async () => {
  client = await mcpClientWithKey(`${h.mock.url}/mcp`, KEY);
});
afterAll(async () => {
  await client?.close();
});

type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
};
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as ToolResult;

describe("/mcp on the mock", () => {
  it("refuses a missing credential with 401 naming the MCP protected-resource metadata", async () => {
    const res = await fetch(`${h.mock.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    const meta = `${h.mock.url}/.well-known/oauth-protected-resource/mcp`;
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${meta}"`);
    expect(await res.json()).toMatchObject({ ok: false, code: "PLB_MISSING_CREDENTIAL" });
    const bad = await fetch(`${h.mock.url}/mcp`, { method: "POST", headers: { authorization: "Bearer nope" } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token", resource_metadata="${meta}"`);
    const prm = await h.get("/.well-known/oauth-protected-resource/mcp", null);
    const rest = await h.get("/.well-known/oauth-protected-resource", null);
    expect(prm.body).toMatchObject({
      resource: `${h.mock.url}/mcp`,
      authorization_servers: (rest.body as { authorization_servers: string[] }).authorization_servers,
    });
  });

  it("initializes and lists one tool per operation with the document's input schemas", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "plumbline", version: h.contract.version });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    const expected = mcpSettings(h.contract).tools;
    expect(tools.map((t) => t.name)).toEqual([
      "search",
      "news",
      "crawl",
      "screenshot",
      "sitemap",
      "trending",
      "extract",
      "deepcrawl",
      "deepcrawl_status",
      "usage",
    ]);
    for (const t of expected) expect(tools.find((x) => x.name === t.name)?.inputSchema).toEqual(t.inputSchema);
    // the document's own schema, not a copy: the single-request form of search's body
    const searchParameters = h.contract.document.components?.schemas?.SearchParameters;
    expect(tools[0].inputSchema).toEqual(JSON.parse(JSON.stringify(searchParameters)));
  });

  it("charges a tool call as the REST operation, and charges nothing for an invalid one", async () => {
    const before = await h.balance();
    const ok = await call(client, "search", { query: "mcp", crawl_results: 2 });
    expect(ok.isError).toBeFalsy();
    const body = JSON.parse(ok.content[0].text as string);
    expect(h.contract.validators.checkResponse("search", 200, "application/json", body)).toBeNull();
    expect(await h.balance()).toBe(before - 3);
    const invalid = await call(client, "search", { query: "", nope: 1 });
    expect(invalid.isError).toBe(true);
    // the first violation and the count of the rest (D-validation-message), as the REST 422 says it
    expect(invalid.content[0].text).toBe("API error: 422 nope is not an accepted property (and 1 more)");
    expect(JSON.parse(invalid.content[1].text as string)).toMatchObject({ code: "PLB_VALIDATION_FAILED" });
    expect(await h.balance()).toBe(before - 3);
    const usage = await call(client, "usage", {});
    expect(JSON.parse(usage.content[0].text as string)).toMatchObject({
      usage: before - 3,
      credential_type: "api_key",
    });
  });

  it("answers a screenshot as image content and a broke account with the 402 error", async () => {
    const shot = await call(client, "screenshot", { url: "https://example.com/" });
    expect(shot.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      Buffer.from(shot.content[0].data as string, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    const broke = await mcpClientWithKey(`${h.mock.url}/mcp`, BROKE);
    const refused = await call(broke, "crawl", { url: "https://example.com/" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^API error: 402 /);
    await broke.close();
  });

  it("runs the deepcrawl tools and reports protocol errors the JSON-RPC way", async () => {
    const started = JSON.parse(
      (await call(client, "deepcrawl", { url: "https://example.com/" })).content[0].text as string,
    );
    expect(started).toMatchObject({ status: "queued", taskId: expect.any(String) });
    const status = await call(client, "deepcrawl_status", { taskId: started.taskId });
    expect(JSON.parse(status.content[0].text as string)).toMatchObject({ taskId: started.taskId });
    const missing = await call(client, "deepcrawl_status", {});
    expect(missing.content[0].text).toMatch(/^API error: 400 /);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
    const parse = await fetch(`${h.mock.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${KEY}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: "{not json",
    });
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const get = await fetch(`${h.mock.url}/mcp`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(get.status).toBe(405);
  });

  it("passes the mock's Prefer steering to the REST call a tool runs: forced status, dropped connection", async () => {
    const steered = (prefer: string) =>
      fetch(`${h.mock.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY}`,
          prefer,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "search", arguments: { query: "steered" } },
        }),
        signal: AbortSignal.timeout(10_000),
      });
    const forced = (await (await steered("code=502")).json()) as { result: ToolResult };
    expect(forced.result.isError).toBe(true);
    expect(forced.result.content[0].text).toMatch(/^API error: 502 /);
    // the MCP client sees the reset itself, not a call left unanswered
    await expect(steered("fault=reset")).rejects.toThrow(/fetch failed/);
  });

  it("lets the SDK client obtain a token through the OAuth flow by itself, then search with it", async () => {
    const { client: oauthClient, provider, authorizationUrl } = await mcpClientThroughOAuth(`${h.mock.url}/mcp`);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${h.mock.url}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(provider.tokens()?.access_token).toEqual(expect.any(String));
    const before = await h.balance();
    const found = await call(oauthClient, "search", { query: "oauth" });
    expect(found.isError).toBeFalsy();
    expect(await h.balance()).toBe(before - 1);
    const usage = JSON.parse((await call(oauthClient, "usage", {})).content[0].text as string);
    expect(usage).toMatchObject({ credential_type: "oauth", client_id: expect.any(String), usage: before - 1 });
    await oauthClient.close();
  });
});
