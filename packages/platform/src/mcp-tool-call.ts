// A tool call runs its REST operation in-process with the caller's credential (D-mcp-tools), so the tool answers
// with the REST operation's results, errors, charges and rate limits, and cannot drift from them.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Contract, type McpTool, serializeError } from "@plumbline-kit/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { IN_PROCESS_HEADER, lendConnection } from "./in-process-call.ts";

/** Headers of the MCP request that the REST call keeps: the credential, the mock's steering, the host for links. */
const FORWARDED = ["authorization", "prefer", "host", "x-forwarded-host", "x-forwarded-proto"] as const;

type Args = Record<string, unknown>;
type Rest = { method: "GET" | "POST"; url: string; payload?: string } | { error: CallToolResult };

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** The REST request of a tool call: the arguments as the body (verbatim), or as path and query parameters. */
export function restRequestOf(contract: Contract, tool: McpTool, args: Args): Rest {
  const op = contract.operation(tool.operationId);
  if (op.method === "post") return { method: "POST", url: op.path, payload: JSON.stringify(args) };
  let url = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const value = args[p.name];
    if (p.in === "path") {
      // a path parameter that is absent or empty cannot be put in the path: the REST route would not match
      if (typeof value !== "string" || value === "") {
        const check = contract.validators.checkParameters(op.operationId, { path: { [p.name]: value ?? "" } });
        const errors = check.ok ? [] : check.errors;
        return { error: errorResult(serializeError("PLB_BAD_PARAMETER", { errors }).body, 400) };
      }
      url = url.replace(`{${p.name}}`, encodeURIComponent(value));
    } else if (p.in === "query" && value !== undefined) query.set(p.name, text(value));
  }
  const qs = query.toString();
  return { method: "GET", url: qs ? `${url}?${qs}` : url };
}

/** As the official MCP server reports a non-2xx answer: `API error: <status> <message>`, plus the error body. */
export function errorResult(body: unknown, status: number): CallToolResult {
  const message = (body as { message?: unknown } | null)?.message;
  const structured = body && typeof body === "object" && !Array.isArray(body) ? (body as Args) : undefined;
  return {
    isError: true,
    content: [
      { type: "text", text: `API error: ${status} ${typeof message === "string" ? message : ""}`.trimEnd() },
      { type: "text", text: text(body) },
    ],
    ...(structured ? { structuredContent: structured } : {}),
  };
}

export async function callTool(
  app: FastifyInstance,
  contract: Contract,
  req: FastifyRequest,
  tool: McpTool,
  args: Args,
): Promise<CallToolResult> {
  const rest = restRequestOf(contract, tool, args);
  if ("error" in rest) return rest.error;
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const v = req.headers[name];
    if (typeof v === "string") headers[name] = v;
  }
  if (rest.payload !== undefined) headers["content-type"] = "application/json";
  const lent = lendConnection(req.raw.socket);
  headers[IN_PROCESS_HEADER] = lent.token;
  const res = await app
    .inject({ method: rest.method, url: rest.url, headers, payload: rest.payload })
    .finally(lent.release);
  const contentType = String(res.headers["content-type"] ?? "")
    .split(";")[0]
    .trim();
  let body: unknown = res.body;
  if (/[/+]json$/.test(contentType)) {
    try {
      body = JSON.parse(res.body);
    } catch {
      // left as text: the REST answer itself was not JSON
    }
  }
  if (res.statusCode >= 300) return errorResult(body, res.statusCode);
  if (contentType.startsWith("image/"))
    return { content: [{ type: "image", data: res.rawPayload.toString("base64"), mimeType: contentType }] };
  const structured = body && typeof body === "object" && !Array.isArray(body) ? (body as Args) : undefined;
  return { content: [{ type: "text", text: text(body) }], ...(structured ? { structuredContent: structured } : {}) };
}
