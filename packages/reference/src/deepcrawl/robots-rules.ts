// robots.txt for a deepcrawl (RFC 9309), read once per origin per task with robots-parser: a 2xx file is obeyed
// (its Allow/Disallow groups for our user agent, else `*`, and its Crawl-delay); 4xx means no restrictions
// (RFC 9309 2.3.1.3); a 5xx or an unreachable robots.txt means the whole site is disallowed (2.3.1.4). Matching is
// bounded (engines/robots-txt.ts: rules past 16,664 characters dropped, linear-time matching; issue 38).
import type { HttpClient } from "../engines/index.ts";
import { parseRobotsTxt } from "../engines/robots-txt.ts";

export interface RobotsRules {
  allowed(url: string): boolean;
  /** the site's Crawl-delay for us, in ms; null when it sets none */
  crawlDelayMs: number | null;
  /** why every path is disallowed, when it is (robots.txt unreachable) */
  blocked: string | null;
  /** rules ignored for their length (MAX_ROBOTS_RULE_CHARS) */
  droppedRules?: number;
}

const MAX_ROBOTS_BYTES = 512 * 1024; // RFC 9309 2.5: parse at least 500 KiB

export async function readRobots(
  http: HttpClient,
  origin: string,
  userAgent: string,
  signal?: AbortSignal,
): Promise<RobotsRules> {
  const url = `${origin}/robots.txt`;
  const r = await http.fetch(url, { signal, accept: "text/plain,*/*;q=0.5", maxBytes: MAX_ROBOTS_BYTES });
  if (!r.ok || r.value.status >= 500) {
    const why = r.ok ? `answered ${r.value.status}` : (r.message ?? "could not be fetched");
    return {
      allowed: () => false,
      crawlDelayMs: null,
      blocked: `${url} ${why}; an unreachable robots.txt disallows every path (RFC 9309 2.3.1.4)`,
    };
  }
  if (r.value.status >= 300) return { allowed: () => true, crawlDelayMs: null, blocked: null };
  const parsed = parseRobotsTxt(url, r.value.body.toString("utf8"), userAgent);
  const delay = parsed.crawlDelay;
  return {
    // a URL of another origin is not this file's to judge (undefined): its own robots.txt is read for it
    allowed: (u) => parsed.isAllowed(u) !== false,
    crawlDelayMs: typeof delay === "number" && Number.isFinite(delay) && delay > 0 ? delay * 1000 : null,
    blocked: null,
    droppedRules: parsed.droppedRules,
  };
}
