// The agent path on the reference end to end (issue 15, "Done when"): the official MCP SDK client meets /mcp's 401,
// finds the reference's own authorization server, registers, has a person sign in and consent (over HTTP), gets a
// token, lists the tools and calls search; the call is charged to the person's account, which /usage reports as an
// OAuth credential of that client.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signUpOverHttp } from "../../../../test-support/account-signup.ts";
import { consentOverHttp } from "../../../../test-support/http-consent.ts";
import { mcpClientThroughOAuth } from "../../../../test-support/mcp-client.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

let ref: RunningReference;
let dir = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-mcp-oauth-"));
  ref = await startReference({ port: 0, dataDir: dir, rateLimits: { perAccount: 0 }, startingCredits: 25 });
  await signUpOverHttp(ref.url, "agent-owner", "a long enough password");
}, 60_000);

afterAll(async () => {
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("lets the MCP SDK's client get a token through the full flow, list the tools and call search", async () => {
  const { client, provider } = await mcpClientThroughOAuth(`${ref.url}/mcp`, (url, redirectUri) =>
    consentOverHttp({
      authorizeUrl: url.href,
      redirectUri,
      user: "agent-owner",
      password: "a long enough password",
    }),
  );
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["search", "news", "crawl", "screenshot", "deepcrawl", "usage"]));
    const searched = (await client.callTool({ name: "search", arguments: { query: "tide tables" } })) as ToolResult;
    expect(searched.isError).toBeFalsy();
    expect(JSON.parse(searched.content[0].text as string)).toMatchObject({
      searchParameters: { query: "tide tables" },
    });
    const token = provider.tokens()?.access_token as string;
    const usage = await (await fetch(`${ref.url}/usage`, { headers: { authorization: `Bearer ${token}` } })).json();
    // the account the person created (25 credits), charged one search
    expect(usage).toMatchObject({ usage: 24, credential_type: "oauth" });
    expect(usage.client_id).toEqual(expect.any(String));
  } finally {
    await client.close();
  }
}, 60_000);
