// The registry of checks: every family's checks in run order. Ids are unique and kebab-case (a test holds that).
import { AGENT_DISCOVERY_CHECKS } from "./checks/agent-discovery.ts";
import { ASK_CHECKS } from "./checks/ask.ts";
import { AUTH_CHECKS } from "./checks/auth.ts";
import { BATCH_CHECKS } from "./checks/batches.ts";
import { BILLING_CHECKS } from "./checks/billing.ts";
import { BOUNDS_CHECKS } from "./checks/bounds.ts";
import { CLIENT_CHECKS } from "./checks/client-compatibility.ts";
import { DEEPCRAWL_CHECKS } from "./checks/deepcrawl.ts";
import { DEEPCRAWL_TERMINAL_CHECKS } from "./checks/deepcrawl-terminal.ts";
import { DEEPCRAWL_ZIP_CHECKS } from "./checks/deepcrawl-zip.ts";
import { DISCOVERY_CHECKS } from "./checks/discovery.ts";
import { ECHO_CHECKS } from "./checks/echoes.ts";
import { FEEDBACK_CHECKS } from "./checks/feedback.ts";
import { MCP_CHECKS } from "./checks/mcp.ts";
import { OAUTH_CHECKS } from "./checks/oauth-discovery.ts";
import { PAYMENT_CHECKS } from "./checks/payments.ts";
import { RATE_LIMIT_CHECKS } from "./checks/rate-limit.ts";
import { SEARCH_CHECKS } from "./checks/search.ts";
import { ANY_TARGET_SEMANTIC_CHECKS } from "./checks/semantics-any-target.ts";
import { CRAWL_SEMANTIC_CHECKS } from "./checks/semantics-crawl.ts";
import { EXTRACT_SEMANTIC_CHECKS } from "./checks/semantics-extract.ts";
import { SCREENSHOT_SEMANTIC_CHECKS } from "./checks/semantics-screenshot.ts";
import { SITEMAP_SEMANTIC_CHECKS } from "./checks/semantics-sitemap.ts";
import { TARGET_REFUSAL_CHECKS } from "./checks/target-refusal.ts";
import { TRAFFIC_CHECKS } from "./checks/traffic.ts";
import type { CheckDefinition } from "./types.ts";

export const CHECKS: CheckDefinition[] = [
  ...DISCOVERY_CHECKS,
  ...AUTH_CHECKS,
  ...OAUTH_CHECKS,
  ...AGENT_DISCOVERY_CHECKS,
  ...MCP_CHECKS,
  ...BILLING_CHECKS,
  ...PAYMENT_CHECKS,
  ...BATCH_CHECKS,
  ...BOUNDS_CHECKS,
  ...SEARCH_CHECKS,
  // the live version's operations (not planned under a contract without them)
  ...ASK_CHECKS,
  ...FEEDBACK_CHECKS,
  ...DEEPCRAWL_CHECKS,
  ...DEEPCRAWL_TERMINAL_CHECKS,
  ...DEEPCRAWL_ZIP_CHECKS,
  ...CRAWL_SEMANTIC_CHECKS,
  ...SITEMAP_SEMANTIC_CHECKS,
  ...ANY_TARGET_SEMANTIC_CHECKS,
  ...SCREENSHOT_SEMANTIC_CHECKS,
  ...EXTRACT_SEMANTIC_CHECKS,
  ...TARGET_REFUSAL_CHECKS,
  ...RATE_LIMIT_CHECKS,
  ...ECHO_CHECKS,
  // before the traffic checks, which then judge the calls these make too
  ...CLIENT_CHECKS,
  ...TRAFFIC_CHECKS,
];

export function findCheck(id: string): CheckDefinition | undefined {
  return CHECKS.find((c) => c.id === id);
}
