// The worked example of docs/spec-diff.md: `spec diff` between consecutive versions of spec/openapi.yaml on main
// (`git log --first-parent -- spec/openapi.yaml`: the versions main had; a branch's own commits in between never
// reached a client). Each verdict was checked by hand against `git diff A B -- spec/openapi.yaml`; `why` says
// what changed. history.test.ts runs the diffs again and the docs test checks the page's table is this one.
import type { RuleId } from "../rules.ts";

export interface HistoryStep {
  from: string;
  to: string;
  /** the exact verdict: rule and the operations of each change, in the order spec diff gives them */
  verdict: Array<[RuleId, string]>;
  why: string;
}

const PAID_200 = ["search", "news", "crawl", "screenshot", "sitemap", "trending", "extract"];

export const PROJECT_HISTORY: HistoryStep[] = [
  {
    from: "2e53eb5",
    to: "267323d",
    verdict: [],
    why: "`x-default: google` beside search_service's description (an extension the platform reads), no schema change",
  },
  {
    from: "267323d",
    to: "7d02e12",
    verdict: [],
    why: "descriptions and decision ids; `searchParameters` became a `$ref` with a description beside it (3.1), the same schema",
  },
  { from: "7d02e12", to: "78746de", verdict: [], why: "D-target-refusal: decision text only" },
  { from: "78746de", to: "fd345ed", verdict: [], why: "D-validation-status: decision text only" },
  { from: "fd345ed", to: "de29e78", verdict: [], why: "D-crawl-batch: decision text only" },
  { from: "de29e78", to: "f7dd90a", verdict: [], why: "a description and D-authorization-server" },
  { from: "f7dd90a", to: "5ba7d84", verdict: [], why: "D-extract-engine: a description and decision text" },
  { from: "5ba7d84", to: "1adbaee", verdict: [], why: "D-authorization-server reworded" },
  {
    from: "1adbaee",
    to: "7700d27",
    verdict: [],
    why: "screenshot's selector fields rewritten from flow to block YAML with descriptions and `x-css-selector`: same bounds",
  },
  {
    from: "7700d27",
    to: "a777859",
    verdict: [],
    why: "`limitReached` added to DeepcrawlManifest, the zip's manifest.json: no operation's request or response carries it",
  },
  {
    from: "a777859",
    to: "45d74f3",
    verdict: [],
    why: "`x-search-backends`, `x-decision` on include_sites and exclude_sites, three decisions",
  },
  {
    from: "45d74f3",
    to: "6477a1c",
    verdict: [
      ["path-added", "GET /.well-known/oauth-protected-resource/mcp"],
      ["path-added", "GET /.well-known/api-catalog"],
      ["path-added", "GET /.well-known/mcp/server-card.json"],
      ["path-added", "GET /.well-known/agent-skills/index.json"],
      ["path-added", "GET /.well-known/agent-skills/web-search-crawl-extract/SKILL.md"],
    ],
    why: "five discovery documents (MCP metadata, API catalog, server card, agent skills): additions",
  },
  {
    from: "6477a1c",
    to: "9469218",
    verdict: [
      ...PAID_200.map((op): [RuleId, string] => ["response-header-added", `POST /${op}`]),
      ["response-header-added", "POST /deepcrawl"],
    ],
    why: "`Payment-Receipt` on the success of every paid operation (pay per request); the challenge header reworded",
  },
  {
    from: "9469218",
    to: "6febd2a",
    verdict: [],
    why: "D-parse-limits, D-batch-execution, D-framework-errors: decision text only",
  },
  {
    from: "6febd2a",
    to: "eccc845",
    verdict: [["response-property-added", "POST /crawl"]],
    why: "crawl metadata gains `images` (at most 20 URLs): a new response field",
  },
  { from: "eccc845", to: "01a9bc5", verdict: [], why: "D-batch-execution reworded" },
  {
    from: "01a9bc5",
    to: "11ab23a",
    verdict: [
      ["response-enum-value-added", "POST /search"],
      ["response-enum-value-added", "POST /search"],
      ["request-enum-value-added", "POST /search"],
      ["request-enum-value-added", "POST /search"],
    ],
    why: "search_service accepts `sogou` and `yandex` (D-search-engine-values): new input, and new values in the echoed `searchParameters` a client's exhaustive switch may not handle",
  },
];

const LEVEL_NAMES: Record<string, string> = {
  breaking: "breaking",
  "potentially-breaking": "potentially breaking",
  "non-breaking": "non-breaking",
};

/** The Markdown table of the worked example (docs/spec-diff.md holds it verbatim). */
export function renderHistoryTable(levelOf: (rule: string) => string): string {
  const rows = PROJECT_HISTORY.map((s) => {
    const counts = new Map<string, number>();
    for (const [rule] of s.verdict) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    const verdict = s.verdict.length
      ? [...counts].map(([rule, n]) => `${n} × \`${rule}\` (${LEVEL_NAMES[levelOf(rule)]})`).join(", ")
      : "no change";
    return `| \`${s.from}\` → \`${s.to}\` | ${verdict} | ${s.why} |`;
  });
  return ["| versions | verdict | what changed |", "|---|---|---|", ...rows].join("\n");
}
