// The registry of checks: every family's checks in run order. Ids are unique and kebab-case (a test holds that).
import { AUTH_CHECKS } from "./checks/auth.ts";
import { BATCH_CHECKS } from "./checks/batches.ts";
import { BILLING_CHECKS } from "./checks/billing.ts";
import { BOUNDS_CHECKS } from "./checks/bounds.ts";
import { DEEPCRAWL_CHECKS } from "./checks/deepcrawl.ts";
import { DISCOVERY_CHECKS } from "./checks/discovery.ts";
import { RATE_LIMIT_CHECKS } from "./checks/rate-limit.ts";
import { SEARCH_CHECKS } from "./checks/search.ts";
import { CRAWL_SEMANTIC_CHECKS } from "./checks/semantics-crawl.ts";
import { SITEMAP_SEMANTIC_CHECKS } from "./checks/semantics-sitemap.ts";
import { TRAFFIC_CHECKS } from "./checks/traffic.ts";
import type { CheckDefinition } from "./types.ts";

export const CHECKS: CheckDefinition[] = [
  ...DISCOVERY_CHECKS,
  ...AUTH_CHECKS,
  ...BILLING_CHECKS,
  ...BATCH_CHECKS,
  ...BOUNDS_CHECKS,
  ...SEARCH_CHECKS,
  ...DEEPCRAWL_CHECKS,
  ...CRAWL_SEMANTIC_CHECKS,
  ...SITEMAP_SEMANTIC_CHECKS,
  ...RATE_LIMIT_CHECKS,
  ...TRAFFIC_CHECKS,
];

export function findCheck(id: string): CheckDefinition | undefined {
  return CHECKS.find((c) => c.id === id);
}
