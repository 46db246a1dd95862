// The hosted MCP server's tools, read from the document's `x-mcp` block (D-mcp-tools): one tool per operation,
// whose input schema is the operation's own JSON Schema, never re-typed. The platform serves these and the
// conformance suite compares a target's tools/list against them.
import type { Contract } from "./contract.ts";
import type { JsonSchema } from "./json-schema.ts";
import type { OperationSpec } from "./operations.ts";

export interface McpTool {
  name: string;
  operationId: string;
  /** the operation's summary and price, for the model choosing a tool */
  description: string;
  /** a JSON Schema object (MCP requires `type: object`) */
  inputSchema: JsonSchema & { type: "object" };
}

export interface McpSettings {
  /** the endpoint's path below {mcp_url} (interface-spec "Discovery endpoints": `{mcp_url}/mcp`) */
  path: string;
  /** the implementation name in `initialize` and the server card */
  serverName: string;
  serverTitle: string;
  tools: McpTool[];
}

type Obj = Record<string, unknown>;

/**
 * The tool's arguments: the single-request body of a POST operation (the object alternative of a batch body's
 * `oneOf`, since MCP arguments are an object), or the operation's parameters as an object's properties.
 */
export function toolInputSchema(op: OperationSpec): McpTool["inputSchema"] {
  const body = op.requestSchema;
  if (body) {
    const object = body.type === "object" ? body : body.oneOf?.find((s) => s.type === "object");
    if (!object) throw new Error(`x-mcp: ${op.operationId} has no object request body to serve as tool input`);
    return object as McpTool["inputSchema"];
  }
  const properties: Record<string, JsonSchema> = {};
  for (const p of op.parameters) properties[p.name] = p.schema;
  const required = op.parameters.filter((p) => p.required).map((p) => p.name);
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function describeTool(op: OperationSpec): string {
  const price = op.pricing
    ? `Costs ${op.pricing.credits} credit${op.pricing.credits === 1 ? "" : "s"} per request${op.pricing.surcharge ? `; ${op.pricing.surcharge.description.replace(/\.$/, "")}` : ""}.`
    : "Free.";
  return `${op.summary.replace(/\.?$/, ".")} ${price} Same as ${op.method.toUpperCase()} ${op.path}.`;
}

/** The MCP settings of a contract; throws when the block names an operation the document lacks. */
export function mcpSettings(contract: Contract): McpSettings {
  const block = (contract.raw["x-mcp"] ?? {}) as Obj;
  const tools = Object.entries((block.tools ?? {}) as Record<string, string>).map(([name, operationId]) => {
    const op = contract.operation(operationId);
    return { name, operationId, description: describeTool(op), inputSchema: toolInputSchema(op) };
  });
  return {
    path: String(block.path ?? "/mcp"),
    serverName: String(block.server_name ?? "plumbline"),
    serverTitle: String(block.server_title ?? contract.document.info.title),
    tools,
  };
}
