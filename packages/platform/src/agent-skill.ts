// The service's agent skill (D-agent-skills): a SKILL.md generated from the document, so it states the same
// operations, prices and rules as the contract, and its index entry with the SHA-256 digest of its exact bytes.
import { createHash } from "node:crypto";
import type { Contract } from "@plumbline-kit/contract";
import type { AgentUrls } from "./agent-urls.ts";

export const SKILL_NAME = "web-search-crawl-extract";
export const SKILL_PATH = `/.well-known/agent-skills/${SKILL_NAME}/SKILL.md`;
export const SKILLS_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

export function skillDescription(contract: Contract): string {
  return (
    `Search the web and news, crawl pages to Markdown, take screenshots, list a site's URLs, read trending lists, ` +
    `extract structured data and crawl whole sites through the ${contract.document.info.title}. ` +
    "Use it when a task needs live web content; every paid call spends credits."
  );
}

export function renderSkill(contract: Contract, urls: AgentUrls): string {
  const rows = contract.contractOperations.map((op) => {
    const price = op.pricing ? String(op.pricing.credits) : "free";
    return `| ${op.method.toUpperCase()} ${op.path} | ${op.summary} | ${price} |`;
  });
  return [
    "---",
    `name: ${SKILL_NAME}`,
    `description: ${skillDescription(contract)}`,
    "---",
    "",
    `# ${contract.document.info.title}`,
    "",
    `Base URL: ${urls.base}. Interface description (OpenAPI): ${urls.base}/openapi.json. Reference: ${urls.base}/docs.`,
    "",
    "## Authentication",
    "",
    "Send `Authorization: Bearer <credential>` on every call except `GET /health`: an OAuth access token (the",
    `authorization server is named at ${urls.base}/.well-known/oauth-protected-resource) or an API key.`,
    "Never put a credential in a URL. `GET /usage` shows the remaining credits and confirms a credential works.",
    "",
    "## Operations",
    "",
    "Paid operations are `POST` with a JSON body. Credits per request:",
    "",
    "| Request | What it does | Credits |",
    "|---|---|---|",
    ...rows,
    "",
    "`crawl_results: N` on search or news adds N crawls to the bill. A deepcrawl answers 202 with a `taskId`;",
    "poll `GET /deepcrawl/status/{taskId}` every few seconds until `completed`, then download `zipUrl`.",
    "",
    "## MCP",
    "",
    `A hosted MCP server (Streamable HTTP) at ${urls.mcpEndpoint} offers one tool per operation, with the same`,
    "input schemas, results, errors and charges, and the same credentials.",
    "",
    "## Errors",
    "",
    "Errors are JSON `{ok: false, error, message, code}`; 422 lists every invalid field in `errors[]`; 402 means",
    "no credits (or no credential). Retry 429 after `Retry-After`, and 502, 503, 504; never retry 400, 401, 402,",
    "422, or a crawl answered 404 or 410.",
    "",
  ].join("\n");
}

export function skillsIndex(contract: Contract, skill: string) {
  return {
    $schema: SKILLS_SCHEMA,
    skills: [
      {
        name: SKILL_NAME,
        type: "skill-md",
        description: skillDescription(contract),
        url: SKILL_PATH,
        digest: `sha256:${createHash("sha256").update(skill, "utf8").digest("hex")}`,
      },
    ],
  };
}
