// The hosted MCP endpoint as an MCP client meets it (interface-spec "Discovery endpoints", "Authentication" 1-4;
// D-mcp-tools, D-mcp-endpoint), through the official SDK's client: the 401 that starts the OAuth flow, initialize,
// tools/list against the document's schemas, and a paid tool call charged as its REST operation.

import { type Contract, type McpTool, mcpSettings } from "@plumbline-kit/contract";
import { baseBody } from "@plumbline-kit/contract/bounds";
import { plural } from "@plumbline-kit/contract/report/plural";
import { describe, failure, json, measureCharge, ok, status, unreadableBalance } from "../check-helpers.ts";
import { exchangesOf, MCP_PATH, mcpEndpoint, openMcpSession } from "../mcp-session.ts";
import type { OperationScope } from "../operation-scope.ts";
import { withReachableUrls } from "../probes/target-urls.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";

type ToolResult = { isError?: boolean; content?: Array<{ type: string; text?: string }> };
const MCP_ACCEPT = { accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "plumbline-conformance", version: "1" },
  },
});

/** The cheapest paid tool in scope whose call needs no state (deepcrawl starts a task). */
function paidTool(contract: Contract, scope: OperationScope) {
  const credits = (t: McpTool) => contract.operation(t.operationId).pricing?.credits ?? 0;
  return mcpSettings(contract)
    .tools.filter((t) => scope.has(t.operationId) && credits(t) > 0 && t.operationId !== "deepcrawl")
    .sort((a, b) => credits(a) - credits(b))[0];
}

/** JSON with sorted keys: schemas are equal whatever order a client library rebuilt their members in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

const unauthenticated: CheckDefinition = {
  id: "mcp-missing-credential-401",
  title: "/mcp without a credential answers 401 with WWW-Authenticate naming its protected-resource metadata",
  severity: "critical",
  section: "Authentication 1, 4; Discovery endpoints",
  basis: { kind: "contract" },
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "POST", MCP_PATH, { auth: "none", headers: MCP_ACCEPT, raw: INITIALIZE });
    const challenge = ex.response?.headers["www-authenticate"] ?? "";
    const url = /Bearer\b[\s\S]*resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    if (status(ex) !== 401 || !url)
      return {
        failures: [
          failure(
            "an anonymous MCP request was not refused with the RFC 9728 challenge",
            [ex],
            '401 with WWW-Authenticate: Bearer resource_metadata="…"',
            `${describe(ex)} ${challenge}`,
          ),
        ],
      };
    return ok([`resource_metadata="${url}"`]);
  },
};

const resourceMetadata: CheckDefinition = {
  id: "discovery-mcp-protected-resource",
  title:
    "The MCP protected-resource metadata names the MCP endpoint as its resource and the REST authorization servers",
  severity: "major",
  section: "Discovery endpoints",
  basis: { kind: "decision", decision: "D-mcp-endpoint" },
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "POST", MCP_PATH, { auth: "none", headers: MCP_ACCEPT, raw: INITIALIZE });
    const url = /resource_metadata="([^"]+)"/.exec(ex.response?.headers["www-authenticate"] ?? "")?.[1];
    if (!url) return { failures: [], skip: "the MCP endpoint names no resource_metadata (mcp-missing-credential-401)" };
    const meta = await ctx.http.call(this.id, "GET", url, { auth: "none" });
    const rest = await ctx.http.call(this.id, "GET", "/.well-known/oauth-protected-resource", { auth: "none" });
    const doc = json<{ resource?: unknown; authorization_servers?: unknown }>(meta);
    const failures: Failure[] = [];
    if (status(meta) !== 200 || !doc)
      return {
        failures: [failure("the metadata the challenge names is not served", [ex, meta], "200 JSON", describe(meta))],
      };
    if (doc.resource !== mcpEndpoint(ctx))
      failures.push(
        failure("resource is not the MCP endpoint (RFC 9728 §3.3)", [meta], mcpEndpoint(ctx), String(doc.resource)),
      );
    const restServers = json<{ authorization_servers?: unknown }>(rest)?.authorization_servers;
    if (JSON.stringify(doc.authorization_servers) !== JSON.stringify(restServers))
      failures.push(
        failure(
          "the MCP metadata names other authorization servers than the REST metadata",
          [meta, rest],
          JSON.stringify(restServers),
          JSON.stringify(doc.authorization_servers),
        ),
      );
    return { failures };
  },
};

const initialize: CheckDefinition = {
  id: "mcp-initialize",
  title: "An MCP client initializes with an API key: server info, a supported protocol version, the tools capability",
  severity: "critical",
  section: "Discovery endpoints; Authentication 1",
  basis: { kind: "contract" },
  async run(ctx) {
    let session: Awaited<ReturnType<typeof openMcpSession>>;
    try {
      session = await openMcpSession(ctx, this.id);
    } catch (err) {
      const ex = exchangesOf(err);
      return {
        failures: [
          failure(`initialize failed: ${(err as Error).message}`, ex, "an initialize result", ex[0] && describe(ex[0])),
        ],
      };
    }
    const failures: Failure[] = [];
    const info = session.client.getServerVersion();
    if (!info?.name || !info.version)
      failures.push(failure("no serverInfo name and version", session.exchanges, "serverInfo", JSON.stringify(info)));
    if (!session.client.getServerCapabilities()?.tools)
      failures.push(failure("the tools capability is not declared", session.exchanges, "capabilities.tools", "(none)"));
    await session.close();
    return failures.length ? { failures } : ok([`server ${info?.name} ${info?.version}`]);
  },
};

const toolsList: CheckDefinition = {
  id: "mcp-tools-list",
  title: "tools/list offers one tool per operation, each with the document's input schema",
  severity: "major",
  section: "Discovery endpoints",
  basis: { kind: "decision", decision: "D-mcp-tools" },
  operations: (c) => mcpSettings(c).tools.map((t) => t.operationId),
  async run(ctx) {
    let session: Awaited<ReturnType<typeof openMcpSession>>;
    try {
      session = await openMcpSession(ctx, this.id);
    } catch (err) {
      return { failures: [], skip: `initialize failed (mcp-initialize): ${(err as Error).message}` };
    }
    const failures: Failure[] = [];
    try {
      const { tools } = await session.client.listTools();
      const ex = session.exchanges.at(-1) as Exchange;
      for (const want of mcpSettings(ctx.contract).tools.filter((t) => ctx.scope.has(t.operationId))) {
        const got = tools.find((t) => t.name === want.name);
        if (!got) failures.push(failure(`no tool ${want.name} (${want.operationId})`, [ex], want.name, "(absent)"));
        else if (canonical(got.inputSchema) !== canonical(want.inputSchema))
          failures.push(
            failure(
              `${want.name}: the input schema differs from the document's`,
              [ex],
              "the operation's schema",
              JSON.stringify(got.inputSchema).slice(0, 300),
            ),
          );
      }
    } catch (err) {
      failures.push(failure(`tools/list failed: ${(err as Error).message}`, session.exchanges));
    }
    await session.close();
    return { failures };
  },
};

const paidCall: CheckDefinition = {
  id: "mcp-tool-call-charged",
  title: "A paid tool call answers as its REST operation and its price shows in /usage",
  severity: "critical",
  section: "Discovery endpoints; What the service does",
  basis: { kind: "decision", decision: "D-mcp-tools" },
  operations: (c) =>
    mcpSettings(c)
      .tools.filter((t) => c.operation(t.operationId).pricing)
      .map((t) => t.operationId),
  usesFixtureSite: true,
  cost(c, _alt, scope) {
    const tool = paidTool(c, scope);
    return tool ? c.prices.entryCredits(tool.operationId, baseBody(c.operation(tool.operationId))) : 0;
  },
  async run(ctx) {
    const tool = paidTool(ctx.contract, ctx.scope);
    if (!tool) return { failures: [], skip: "no paid tool among the selected operations", skipKind: "not-selected" };
    let session: Awaited<ReturnType<typeof openMcpSession>>;
    try {
      session = await openMcpSession(ctx, this.id);
    } catch (err) {
      return { failures: [], skip: `initialize failed (mcp-initialize): ${(err as Error).message}` };
    }
    const args = await withReachableUrls(ctx, baseBody(ctx.contract.operation(tool.operationId)));
    const expected = ctx.contract.prices.entryCredits(tool.operationId, args);
    const m = await measureCharge(ctx, this.id, async () => {
      try {
        return (await session.client.callTool({ name: tool.name, arguments: args })) as ToolResult;
      } catch (err) {
        return err as Error;
      }
    });
    await session.close();
    const call = session.exchanges.at(-1) as Exchange;
    if (m.result instanceof Error)
      return { failures: [failure(`tools/call ${tool.name} failed: ${m.result.message}`, [call])] };
    const failures: Failure[] = [];
    const text = m.result.content?.find((c) => c.type === "text")?.text;
    if (m.result.isError) failures.push(failure(`tools/call ${tool.name} answered an error`, [call], "a result", text));
    else {
      let body: unknown;
      try {
        body = JSON.parse(text ?? "");
      } catch {
        failures.push(failure(`${tool.name}: the result is not the JSON answer`, [call], "JSON text content", text));
      }
      const errors =
        body === undefined
          ? null
          : ctx.contract.validators.checkResponse(tool.operationId, 200, "application/json", body);
      if (errors)
        failures.push(
          failure(
            `${tool.name}: the result does not validate as ${tool.operationId}'s 200 answer`,
            [call],
            "the operation's schema",
            JSON.stringify(errors).slice(0, 300),
          ),
        );
    }
    if (m.charged === null) failures.push(unreadableBalance(m));
    else if (m.charged !== expected)
      failures.push(
        failure(
          `tools/call ${tool.name} charged ${plural(m.charged, "credit")}`,
          [m.before.exchange, call, m.after.exchange],
          String(expected),
          String(m.charged),
        ),
      );
    return failures.length
      ? { failures }
      : ok([`${tool.name}: ${expected} credit(s), as POST ${ctx.contract.operation(tool.operationId).path}`]);
  },
};

const toolError: CheckDefinition = {
  id: "mcp-tool-error",
  title: "An invalid tool call is a tool error carrying the REST error (API error: 422 …), charged nothing",
  severity: "major",
  section: "Discovery endpoints; Errors",
  basis: { kind: "decision", decision: "D-mcp-tools" },
  operations: (c) =>
    mcpSettings(c)
      .tools.filter((t) => c.operation(t.operationId).pricing)
      .map((t) => t.operationId),
  async run(ctx) {
    const tool = paidTool(ctx.contract, ctx.scope);
    if (!tool) return { failures: [], skip: "no paid tool among the selected operations", skipKind: "not-selected" };
    let session: Awaited<ReturnType<typeof openMcpSession>>;
    try {
      session = await openMcpSession(ctx, this.id);
    } catch (err) {
      return { failures: [], skip: `initialize failed (mcp-initialize): ${(err as Error).message}` };
    }
    // an unknown argument: forwarded verbatim, the REST operation refuses it (no extra fields are accepted)
    const args = { ...baseBody(ctx.contract.operation(tool.operationId)), plumbline_unknown_argument: true };
    const m = await measureCharge(ctx, this.id, () =>
      session.client.callTool({ name: tool.name, arguments: args }).then(
        (r) => r as ToolResult,
        (err: Error) => err,
      ),
    );
    await session.close();
    const call = session.exchanges.at(-1) as Exchange;
    if (m.result instanceof Error) return { failures: [failure(`tools/call failed: ${m.result.message}`, [call])] };
    const text = m.result.content?.find((c) => c.type === "text")?.text ?? "";
    const failures: Failure[] = [];
    if (!m.result.isError || !/^API error: 422\b/.test(text))
      failures.push(
        failure(
          `${tool.name} with an unknown argument`,
          [call],
          "isError with API error: 422 …",
          `isError ${m.result.isError}: ${text.slice(0, 200)}`,
        ),
      );
    if (m.charged === null) failures.push(unreadableBalance(m));
    else if (m.charged !== 0)
      failures.push(
        failure(
          "an invalid tool call was charged",
          [m.before.exchange, call, m.after.exchange],
          "0",
          String(m.charged),
        ),
      );
    return { failures };
  },
};

export const MCP_CHECKS = [unauthenticated, resourceMetadata, initialize, toolsList, paidCall, toolError];
