// The hosted MCP endpoint on the reference (issue 15; D-mcp-tools, D-mcp-endpoint), through the MCP SDK's own
// client: a crawl of a loopback fixture page charged on the SQL ledger as POST /crawl, with an API key and with an
// OAuth-type credential; the 401 that starts the OAuth flow names the configured authorization server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClientWithKey } from "../../../../test-support/mcp-client.ts";
import { type RunningReference, startReference } from "../start-reference.ts";
import { ARTICLE_HTML, MARKERS } from "./fixture-pages.ts";
import { type FixtureSite, serveSite } from "./fixture-site.ts";

const dir = mkdtempSync(join(tmpdir(), "plumbline-ref-mcp-"));
let ref: RunningReference;
let site: FixtureSite;
let client: Client;

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };
const usage = async (key: string) =>
  (await (await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    usage: number;
    credential_type: string;
  };

beforeAll(async () => {
  site = await serveSite({ "/article": { body: ARTICLE_HTML } });
  ref = await startReference({
    port: 0,
    dataDir: dir,
    allowPrivateNetwork: true,
    keys: [
      { key: "k", credits: 100 },
      { key: "oauth-token", credits: 50, credentialType: "oauth" },
    ],
    rateLimits: { perAccount: 0 },
    // a trending upstream that refuses connections: the failing operation of the tool-error test
    trending: { githubUrl: "http://127.0.0.1:9" },
    authorizationServer: "https://auth.example.com",
  });
  client = await mcpClientWithKey(`${ref.url}/mcp`, "k");
}, 60_000);

afterAll(async () => {
  await client?.close();
  await ref?.close();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("/mcp on the reference", () => {
  it("lists the tools and crawls a page, charged as POST /crawl", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("crawl");
    const before = (await usage("k")).usage;
    const r = (await client.callTool({ name: "crawl", arguments: { url: `${site.url}/article` } })) as ToolResult;
    expect(r.isError).toBeFalsy();
    // the same Markdown as POST /crawl: the article's heading, none of its boilerplate
    const content = (JSON.parse(r.content[0].text as string) as { results: { content: string } }).results.content;
    expect(content).toMatch(/^# Tidal energy in small harbours/m);
    for (const marker of MARKERS) expect(content).not.toContain(marker);
    expect((await usage("k")).usage).toBe(before - 1);
  });

  it("answers an operation whose upstream fails with its REST error, uncharged", async () => {
    const before = (await usage("k")).usage;
    // its upstream refuses the connection: the REST answer is 502, uncharged
    const r = (await client.callTool({ name: "trending", arguments: { search_service: "github" } })) as ToolResult;
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^API error: 502 /);
    expect((await usage("k")).usage).toBe(before);
  });

  it("accepts an OAuth access token like an API key, on its own account", async () => {
    const oauth = await mcpClientWithKey(`${ref.url}/mcp`, "oauth-token");
    const r = (await oauth.callTool({ name: "usage", arguments: {} })) as ToolResult;
    expect(JSON.parse(r.content[0].text as string)).toMatchObject({ usage: 50, credential_type: "oauth" });
    await oauth.close();
  });

  it("starts an MCP client's OAuth flow: 401 to the MCP metadata, which names the authorization server", async () => {
    const res = await fetch(`${ref.url}/mcp`, { method: "POST", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(401);
    const meta = `${ref.url}/.well-known/oauth-protected-resource/mcp`;
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${meta}"`);
    expect(await (await fetch(meta)).json()).toMatchObject({
      resource: `${ref.url}/mcp`,
      authorization_servers: ["https://auth.example.com"],
    });
  });
});
