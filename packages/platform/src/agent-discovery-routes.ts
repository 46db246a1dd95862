// The agent-facing discovery documents (interface-spec "Discovery endpoints"), generated per request from the
// document and the configured addresses: the MCP protected-resource metadata (D-mcp-endpoint), the API catalog
// (RFC 9727, D-api-catalog), the MCP server card (D-mcp-server-card) and the agent skills index (D-agent-skills).
import { mcpSettings } from "@plumbline-kit/contract";
import type { FastifyInstance } from "fastify";
import { renderSkill, SKILL_PATH, skillsIndex } from "./agent-skill.ts";
import { agentUrlsOf } from "./agent-urls.ts";
import type { PlatformOptions } from "./platform-options.ts";
import { LINK_HEADER } from "./request-headers-plugin.ts";

const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** A server card name: the host in reverse-DNS order, then the server's name (SEP-2127 names are namespaced). */
function cardName(url: string, server: string): string {
  const host = new URL(url).hostname.replace(/[^a-zA-Z0-9.-]/g, "-");
  return `${host.split(".").reverse().join(".")}/${server}`;
}

export function agentDiscoveryRoutes(app: FastifyInstance, o: PlatformOptions) {
  const mcp = mcpSettings(o.contract);
  const title = o.contract.document.info.title;

  app.get(
    `/.well-known/oauth-protected-resource${mcp.path}`,
    { config: { operationId: "getMcpProtectedResourceMetadata" } },
    async (req, reply) => {
      // the REST metadata, whichever authorization servers it names, with the MCP endpoint as the resource
      const rest = await app.inject({
        method: "GET",
        url: "/.well-known/oauth-protected-resource",
        headers: { host: req.headers.host ?? "localhost" },
      });
      if (rest.statusCode !== 200) return reply.code(rest.statusCode).type("application/json").send(rest.body);
      return { ...(JSON.parse(rest.body) as object), resource: agentUrlsOf(req, o).mcpEndpoint };
    },
  );

  app.get("/.well-known/api-catalog", { config: { operationId: "getApiCatalog" } }, async (req, reply) => {
    const u = agentUrlsOf(req, o);
    const catalog = {
      linkset: [
        {
          anchor: u.base,
          "service-desc": [{ href: `${u.base}/openapi.json`, type: "application/vnd.oai.openapi+json" }],
          "service-doc": [{ href: `${u.base}/docs`, type: "text/html" }],
          status: [{ href: `${u.base}/health`, type: "application/json" }],
        },
        {
          anchor: u.mcpEndpoint,
          "service-desc": [{ href: `${u.site}/.well-known/mcp/server-card.json`, type: "application/json" }],
          "service-doc": [{ href: `${u.base}/docs`, type: "text/html" }],
        },
      ],
    };
    // RFC 9727 §3.1: the catalog names itself with rel="api-catalog"
    return reply
      .header("link", `${LINK_HEADER}, </.well-known/api-catalog>; rel="api-catalog"`)
      .type(API_CATALOG_TYPE)
      .send(JSON.stringify(catalog));
  });

  app.get("/.well-known/mcp/server-card.json", { config: { operationId: "getMcpServerCard" } }, async (req) => {
    const u = agentUrlsOf(req, o);
    // the SDK's protocol versions, loaded with the SDK at the first request that needs it (mcp-routes.ts)
    const { SUPPORTED_PROTOCOL_VERSIONS } = await import("@modelcontextprotocol/sdk/types.js");
    return {
      $schema: SERVER_CARD_SCHEMA,
      name: cardName(u.site, mcp.serverName),
      version: o.contract.version,
      title,
      description: `${title}: ${mcp.tools.map((t) => t.name).join(", ")} as MCP tools, charged as the REST operations.`,
      websiteUrl: u.site,
      remotes: [
        {
          type: "streamable-http",
          url: u.mcpEndpoint,
          supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
          headers: [
            {
              name: "Authorization",
              description: "Bearer <OAuth access token or API key>",
              isRequired: true,
              isSecret: true,
            },
          ],
        },
      ],
    };
  });

  app.get("/.well-known/agent-skills/index.json", { config: { operationId: "getAgentSkillsIndex" } }, async (req) =>
    skillsIndex(o.contract, renderSkill(o.contract, agentUrlsOf(req, o))),
  );

  app.get(SKILL_PATH, { config: { operationId: "getAgentSkill" } }, async (req, reply) =>
    reply.type("text/markdown; charset=utf-8").send(renderSkill(o.contract, agentUrlsOf(req, o))),
  );
}
