// The hosted MCP endpoint under --contract live (issue 39; D-mcp-tools of the live document): the MCP SDK's own
// client lists the ask and feedback tools (the seed's list has neither: packages/mock/src/test/mcp.test.ts), each with
// its operation's input schema, and a call is the REST call: ask charged 5 credits and its answer a valid /ask
// answer, refused 402 on an empty account and 422 naming the field; feedback free, answered with the stored report's
// id, kept in the mock's store, and limited to 10 a minute like REST.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpSettings } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClientWithKey } from "../../../../test-support/mcp-client.ts";
import { BROKE, KEY, useMock } from "./harness.ts";

const h = useMock({ contractVersion: "live" });
let client: Client;
let broke: Client;
beforeAll(async () => {
  client = await mcpClientWithKey(`${h.mock.url}/mcp`, KEY);
  broke = await mcpClientWithKey(`${h.mock.url}/mcp`, BROKE);
});
afterAll(async () => {
  await Promise.all([client?.close(), broke?.close()]);
});

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: unknown };
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as ToolResult;
const schemaOf = (name: string) =>
  JSON.parse(JSON.stringify(h.contract.document.components?.schemas?.[name] ?? null)) as unknown;

describe("/mcp on the mock under --contract live", () => {
  it("lists ask and feedback beside the seed's tools, with the live document's input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(mcpSettings(h.contract).tools.map((t) => t.name));
    expect(tools.map((t) => t.name).slice(0, 4)).toEqual(["search", "news", "ask", "feedback"]);
    expect(tools.find((t) => t.name === "ask")?.inputSchema).toEqual(schemaOf("AskRequest"));
    expect(tools.find((t) => t.name === "feedback")?.inputSchema).toEqual(schemaOf("FeedbackRequest"));
    expect(tools.find((t) => t.name === "ask")?.description).toMatch(/Costs 5 credits per request/);
    expect(tools.find((t) => t.name === "feedback")?.description).toMatch(/Free\./);
  });

  it("charges an ask call 5 credits and answers it as POST /ask, intent and ranked results included", async () => {
    const before = await h.balance();
    const r = await call(client, "ask", { query: "vector search papers on github this week" });
    expect(r.isError).toBeFalsy();
    const body = JSON.parse(r.content[0].text as string);
    expect(h.contract.validators.checkResponse("ask", 200, "application/json", body)).toBeNull();
    expect(body.intent).toMatchObject({ sources: ["arxiv", "github", "google"], time_range: "week" });
    expect(r.structuredContent).toEqual(body);
    expect(await h.balance()).toBe(before - 5);
  });

  it("refuses ask as REST does: 402 on an empty account, 422 naming the field, neither charged", async () => {
    const empty = await call(broke, "ask", { query: "vector search" });
    expect(empty.isError).toBe(true);
    expect(empty.content[0].text).toMatch(/^API error: 402/);
    const before = await h.balance();
    const invalid = await call(client, "ask", { query: "vector search", search_service: "google" });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/^API error: 422 .*search_service/);
    expect(await h.balance()).toBe(before);
  });

  it("keeps a feedback report for free and answers its id; the eleventh of a minute is refused 429", async () => {
    const before = await h.balance();
    const r = await call(client, "feedback", { message: "The sitemap tool found no links.", category: "bug" });
    expect(r.isError).toBeFalsy();
    const body = JSON.parse(r.content[0].text as string) as { id: string; status: string };
    expect(body).toEqual({ id: expect.stringMatching(/^fb_/), status: "new" });
    expect(await h.balance()).toBe(before);
    const kept = (await h.admin("GET", "/feedback")).body as { reports: Array<{ id: string; message: string }> };
    expect(kept.reports.find((x) => x.id === body.id)?.message).toBe("The sitemap tool found no links.");
  });
});

describe("/mcp's feedback tool under the operation's own rate window", () => {
  // a manual clock: the window cannot end between the eleven calls (windows are fixed, aligned to the epoch)
  const limited = useMock({ contractVersion: "live", clock: "manual", rateLimits: { perAccount: 200 } });
  it("refuses the eleventh report within a minute with API error: 429, as REST does", async () => {
    const c = await mcpClientWithKey(`${limited.mock.url}/mcp`, KEY);
    try {
      const texts: string[] = [];
      for (let i = 0; i < 11; i++) {
        const r = await call(c, "feedback", { message: `report ${i + 1}` });
        texts.push(r.isError ? (r.content[0].text as string) : "stored");
      }
      expect(texts.slice(0, 10)).toEqual(Array(10).fill("stored"));
      expect(texts[10]).toMatch(/^API error: 429/);
    } finally {
      await c.close();
    }
  });
});
