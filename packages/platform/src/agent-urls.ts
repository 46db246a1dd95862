// The addresses of the Discovery table (interface-spec "Discovery endpoints"): {base_url} is where the client
// reached the service (or the configured public URL); {mcp_url} and {site_url} default to it (D-mcp-endpoint).
import type { FastifyRequest } from "fastify";
import type { PlatformOptions } from "./platform-options.ts";
import { baseUrlOf } from "./request-state.ts";

export interface AgentUrls {
  base: string;
  mcp: string;
  site: string;
  /** `{mcp_url}/mcp`: the MCP endpoint, the protected resource of D-mcp-endpoint */
  mcpEndpoint: string;
  /** RFC 9728 §3.1: the metadata of `{mcp_url}/mcp` is at `{mcp_url}/.well-known/oauth-protected-resource/mcp` */
  mcpResourceMetadata: string;
}

const trim = (url: string) => url.replace(/\/+$/, "");

export function agentUrlsOf(
  req: FastifyRequest,
  o: Pick<PlatformOptions, "publicUrl" | "mcpUrl" | "siteUrl">,
): AgentUrls {
  const base = baseUrlOf(req, o.publicUrl);
  const mcp = o.mcpUrl ? trim(o.mcpUrl) : base;
  const endpoint = new URL(`${mcp}/mcp`);
  return {
    base,
    mcp,
    site: o.siteUrl ? trim(o.siteUrl) : base,
    mcpEndpoint: endpoint.href,
    mcpResourceMetadata: `${endpoint.origin}/.well-known/oauth-protected-resource${endpoint.pathname}`,
  };
}
