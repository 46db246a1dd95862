// The agent-facing discovery documents (interface-spec "Discovery endpoints"): the RFC 9727 API catalog, the MCP
// server card (D-mcp-server-card) and the agent skills index with the skills it lists (D-agent-skills).
import { createHash } from "node:crypto";
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import { mcpEndpoint } from "../mcp-session.ts";
import type { CheckDefinition, Exchange, Failure } from "../types.ts";

type Link = { href?: unknown; type?: unknown };
type Context = Record<string, unknown> & { anchor?: unknown };

const apiCatalog: CheckDefinition = {
  id: "discovery-api-catalog",
  title: "The API catalog is an RFC 9727 linkset anchoring the API with service-desc, service-doc and status links",
  severity: "major",
  section: "Discovery endpoints",
  basis: { kind: "contract" },
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "GET", "/.well-known/api-catalog", { auth: "none" });
    const ct = ex.response?.contentType.split(";")[0].trim();
    const linkset = json<{ linkset?: unknown }>(ex)?.linkset;
    if (status(ex) !== 200 || ct !== "application/linkset+json" || !Array.isArray(linkset))
      return {
        failures: [
          failure(
            "no linkset at /.well-known/api-catalog",
            [ex],
            "200 application/linkset+json {linkset: […]}",
            `${describe(ex)} ${ct}`,
          ),
        ],
      };
    const failures: Failure[] = [];
    const api = (linkset as Context[]).find((c) => Array.isArray(c["service-desc"]));
    if (!api)
      return { failures: [failure("no context with a service-desc link", [ex], "service-desc", ex.response?.text)] };
    for (const rel of ["service-doc", "status"])
      if (!Array.isArray(api[rel]) || (api[rel] as Link[]).length === 0)
        failures.push(failure(`the API's context has no ${rel} link`, [ex], rel, Object.keys(api).join(", ")));
    // the service description must be the interface description (RFC 9727 §4.1: it describes the API)
    const href = (api["service-desc"] as Link[])[0]?.href;
    let desc: Exchange | undefined;
    try {
      desc = await ctx.http.call(this.id, "GET", new URL(String(href), `${ctx.http.target}/`).href, { auth: "none" });
    } catch {
      failures.push(failure("service-desc is not a URL", [ex], "a URL", String(href)));
    }
    if (desc && (status(desc) !== 200 || typeof json<{ openapi?: unknown }>(desc)?.openapi !== "string"))
      failures.push(
        failure(
          "service-desc does not lead to the OpenAPI document",
          [ex, desc],
          "an OpenAPI document",
          describe(desc),
        ),
      );
    return failures.length ? { failures } : ok([`anchor ${String(api.anchor)}`]);
  },
};

const serverCard: CheckDefinition = {
  id: "discovery-mcp-server-card",
  title: "The MCP server card names the server and its Streamable HTTP endpoint",
  severity: "minor",
  section: "Discovery endpoints",
  basis: { kind: "decision", decision: "D-mcp-server-card" },
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "GET", "/.well-known/mcp/server-card.json", { auth: "none" });
    const card = json<{ name?: unknown; version?: unknown; remotes?: Array<{ type?: unknown; url?: unknown }> }>(ex);
    if (status(ex) !== 200 || !card) return { failures: [failure("no server card", [ex], "200 JSON", describe(ex))] };
    const failures: Failure[] = [];
    const errors = ctx.contract.validators.checkResponse("getMcpServerCard", 200, "application/json", card);
    if (errors)
      failures.push(
        failure(
          "the card does not follow the server-card schema",
          [ex],
          "McpServerCard",
          JSON.stringify(errors).slice(0, 300),
        ),
      );
    const remote = card.remotes?.find((r) => r.type === "streamable-http");
    if (!remote)
      failures.push(failure("no streamable-http remote", [ex], "remotes[].type streamable-http", ex.response?.text));
    const notes =
      remote && remote.url !== mcpEndpoint(ctx)
        ? [`the card names ${String(remote.url)}; the suite uses ${mcpEndpoint(ctx)}`]
        : [];
    return failures.length ? { failures, notes } : ok(notes);
  },
};

const agentSkills: CheckDefinition = {
  id: "discovery-agent-skills",
  title: "The agent skills index lists skills whose artifacts are served with the SHA-256 digest it gives",
  severity: "minor",
  section: "Discovery endpoints",
  basis: { kind: "decision", decision: "D-agent-skills" },
  async run(ctx) {
    const url = `${ctx.http.target}/.well-known/agent-skills/index.json`;
    const ex = await ctx.http.call(this.id, "GET", url, { auth: "none" });
    const index = json<{ skills?: Array<{ name?: string; type?: string; url?: string; digest?: string }> }>(ex);
    if (status(ex) !== 200 || !index)
      return { failures: [failure("no agent skills index", [ex], "200 JSON", describe(ex))] };
    const failures: Failure[] = [];
    const errors = ctx.contract.validators.checkResponse("getAgentSkillsIndex", 200, "application/json", index);
    if (errors)
      failures.push(
        failure(
          "the index does not follow the discovery schema",
          [ex],
          "AgentSkillsIndex",
          JSON.stringify(errors).slice(0, 300),
        ),
      );
    for (const skill of index.skills ?? []) {
      if (typeof skill.url !== "string") continue;
      // RFC 3986 resolution against the index's URL (the draft's "URL resolution")
      const art = await ctx.http.call(this.id, "GET", new URL(skill.url, url).href, { auth: "none" });
      const digest = `sha256:${createHash("sha256")
        .update(art.raw ?? Buffer.alloc(0))
        .digest("hex")}`;
      if (status(art) !== 200)
        failures.push(failure(`skill ${skill.name} is not served`, [ex, art], "200", describe(art)));
      else if (digest !== skill.digest)
        failures.push(
          failure(`skill ${skill.name}: the artifact's digest differs from the index`, [ex, art], skill.digest, digest),
        );
      else if (
        skill.type === "skill-md" &&
        !new RegExp(`^---\\r?\\n(?:.*\\r?\\n)*?name: ${skill.name}\\r?\\n`).test(art.raw?.toString("utf8") ?? "")
      )
        failures.push(
          failure(
            `skill ${skill.name}: SKILL.md front matter does not name it`,
            [art],
            `name: ${skill.name}`,
            art.response?.text.slice(0, 200),
          ),
        );
    }
    return failures.length ? { failures } : ok([`${index.skills?.length ?? 0} skill(s)`]);
  },
};

export const AGENT_DISCOVERY_CHECKS = [apiCatalog, serverCard, agentSkills];
