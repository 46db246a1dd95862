// The target URL a caller names (crawl, extract, screenshot, sitemap, deepcrawl; each batch entry), judged before
// any engine runs, the same on the mock and the reference: a URL that is not http(s) (`htp:`, `file:`, `ftp:`,
// `javascript:`, `data:`, `mailto:` are all valid `format: uri` values) or whose host name cannot name a host is
// the caller's bad value, 400 PLB_BAD_VALUE on every operation (all list 400), uncharged (D-target-refusal). A
// redirect to such a URL is the target's doing and stays the engines' 502.

import { malformedHostReason } from "./address-policy.ts";
import type { EngineResult } from "./engines.ts";

type Refusal = EngineResult<never> & { ok: false };

/** Why `url` cannot be a target, or null when it is an http(s) URL with a well-formed host. */
export function targetUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `The target ${url} is not a valid URL`;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return `The target ${url} is not an http(s) URL`;
  const malformed = malformedHostReason(u.hostname);
  return malformed ? `The target ${url} has ${malformed}` : null;
}

/** targetUrlProblem() as the engine result a refused call or batch entry answers, or null. */
export function targetUrlRefusal(url: unknown): Refusal | null {
  const problem = targetUrlProblem(String(url));
  return problem ? { ok: false, code: "PLB_BAD_VALUE", message: problem } : null;
}
