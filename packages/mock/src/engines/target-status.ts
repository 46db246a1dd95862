// The mock's failure convention: a target URL whose path ends with `/status/NNN` behaves like a site answering
// NNN, so clients can exercise every error the contract lists for an operation without a real network.
//
//   operation                    /status/404           /status/410      /status/403  /status/503       /status/504
//   crawl                        PLB_TARGET_NOT_FOUND  PLB_TARGET_GONE  upstream     upstream          upstream
//   screenshot                   upstream              upstream         FORBIDDEN    SERVICE_UNAVAIL.  TARGET_TIMEOUT
//   sitemap, extract, deepcrawl  upstream              upstream         upstream     upstream          upstream
//
// "upstream" is PLB_UPSTREAM_FAILED (502). Only crawl lists 404 and 410 (interface-spec, Errors), and only
// screenshot lists 403, 503 and 504, so every other operation reports a failed target as 502 (catalogue:
// "a target or engine failed"). Any other NNN from 400 to 599 (500 and 502 included) is PLB_UPSTREAM_FAILED;
// a NNN below 400 is an ordinary page. A target that is not http(s) (ftp:, mailto:, …) never gets here over HTTP:
// the platform refuses it first, 400 PLB_BAD_VALUE (reference/platform/target-url.ts); called directly, an engine
// still fails it as PLB_UPSTREAM_FAILED. search and news have no target URL: a query of exactly `__fail_502__`
// fails with PLB_UPSTREAM_FAILED instead, so batch partial failures can be exercised (contract-notes).

import type { ErrorCode } from "@plumbline-kit/contract";
import type { EngineResult } from "@plumbline-kit/platform/engines";

export type TargetOperation = "crawl" | "screenshot" | "sitemap" | "extract" | "deepcrawl";

export const FAIL_QUERY = "__fail_502__";

function isHttp(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The simulated HTTP status of a target URL, or null for an ordinary page. */
export function targetStatus(url: string): number | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const m = /\/status\/(\d{3})\/?$/.exec(path);
  if (!m) return null;
  const status = Number(m[1]);
  return status >= 400 && status <= 599 ? status : null;
}

const SPECIFIC: Record<TargetOperation, Record<number, ErrorCode>> = {
  crawl: { 404: "PLB_TARGET_NOT_FOUND", 410: "PLB_TARGET_GONE" },
  screenshot: { 403: "PLB_TARGET_FORBIDDEN", 503: "PLB_SERVICE_UNAVAILABLE", 504: "PLB_TARGET_TIMEOUT" },
  sitemap: {},
  extract: {},
  deepcrawl: {},
};

/** The failure an operation reports for `url`, or null when the target behaves. */
export function targetFailure(operation: TargetOperation, url: string): (EngineResult<never> & { ok: false }) | null {
  if (!isHttp(url)) {
    return { ok: false, code: "PLB_UPSTREAM_FAILED", message: "The target is not an http(s) URL" };
  }
  const status = targetStatus(url);
  if (status === null) return null;
  return {
    ok: false,
    code: SPECIFIC[operation][status] ?? "PLB_UPSTREAM_FAILED",
    message: `The target answered ${status}`,
  };
}

/** search/news: the magic failing query. */
export function queryFailure(query: string): (EngineResult<never> & { ok: false }) | null {
  return query === FAIL_QUERY
    ? { ok: false, code: "PLB_UPSTREAM_FAILED", message: "The search engine did not answer in time" }
    : null;
}
