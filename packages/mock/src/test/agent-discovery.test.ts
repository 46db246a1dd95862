// The agent-facing discovery documents on the mock (interface-spec "Discovery endpoints"; D-api-catalog,
// D-mcp-server-card, D-agent-skills), each validated against the document by the harness.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startMock } from "../start-mock.ts";
import { useMock } from "./harness.ts";

const h = useMock();

describe("agent discovery documents", () => {
  it("serves the RFC 9727 API catalog anchoring the API and the MCP endpoint", async () => {
    const r = await h.get("/.well-known/api-catalog", null);
    expect(r.headers.get("content-type")).toMatch(
      /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/,
    );
    expect(r.headers.get("link")).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    const { linkset } = r.body as { linkset: Array<Record<string, Array<{ href: string }>> & { anchor: string }> };
    expect(linkset[0]).toMatchObject({
      anchor: h.mock.url,
      "service-desc": [{ href: `${h.mock.url}/openapi.json` }],
      "service-doc": [{ href: `${h.mock.url}/docs` }],
      status: [{ href: `${h.mock.url}/health` }],
    });
    expect(linkset[1]).toMatchObject({ anchor: `${h.mock.url}/mcp` });
    const head = await fetch(`${h.mock.url}/.well-known/api-catalog`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("serves the MCP server card naming the Streamable HTTP endpoint", async () => {
    const r = await h.get("/.well-known/mcp/server-card.json", null);
    expect(r.body).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "1.0.0.127/plumbline",
      version: "1.0.0",
      websiteUrl: h.mock.url,
      remotes: [{ type: "streamable-http", url: `${h.mock.url}/mcp`, supportedProtocolVersions: expect.any(Array) }],
    });
  });

  it("lists the agent skill with the SHA-256 digest of the SKILL.md it serves", async () => {
    const index = (await h.get("/.well-known/agent-skills/index.json", null)).body as {
      skills: Array<{ name: string; url: string; digest: string; type: string }>;
    };
    expect(index.skills).toHaveLength(1);
    const [skill] = index.skills;
    expect(skill.type).toBe("skill-md");
    const md = await h.get(new URL(skill.url, h.mock.url).pathname, null);
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(skill.digest).toBe(`sha256:${createHash("sha256").update(md.raw).digest("hex")}`);
    const text = md.raw.toString("utf8");
    expect(text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: .+\\n---\\n`));
    for (const op of h.contract.contractOperations) expect(text).toContain(`${op.method.toUpperCase()} ${op.path}`);
    expect(text).toContain(`${h.mock.url}/mcp`);
  });

  it("names the configured {mcp_url} and {site_url} instead of the base URL", async () => {
    const m = await startMock({
      port: 0,
      contract: h.contract,
      mcpUrl: "https://mcp.example.com/",
      siteUrl: "https://example.com",
    });
    try {
      const card = await (await fetch(`${m.url}/.well-known/mcp/server-card.json`)).json();
      expect(card).toMatchObject({
        name: "com.example/plumbline",
        websiteUrl: "https://example.com",
        remotes: [{ url: "https://mcp.example.com/mcp" }],
      });
      const prm = await (await fetch(`${m.url}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(prm.resource).toBe("https://mcp.example.com/mcp");
      const res = await fetch(`${m.url}/mcp`, { method: "POST" });
      expect(res.headers.get("www-authenticate")).toBe(
        'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
      );
    } finally {
      await m.close();
    }
  });
});
