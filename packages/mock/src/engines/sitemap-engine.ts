// Synthetic /sitemap (interface-spec, POST /sitemap 1-3): `sitemap` (the default) returns 5..25 URLs declared
// for the requested host; `all` returns the links of the one page, same-host ones and several to other hosts.
// No page content is produced (rule 4).

import type { Schemas } from "@plumbline-kit/contract";
import type { EngineContext, EngineResult } from "@plumbline-kit/platform/engines";
import { createRng } from "./rng.ts";
import { otherHostLinks, sameHostLinks } from "./site-links.ts";
import { targetFailure } from "./target-status.ts";

export async function syntheticSitemap(
  request: Schemas["SitemapRequest"],
  ctx: EngineContext,
): Promise<EngineResult<Schemas["SitemapResponse"]>> {
  const failure = targetFailure("sitemap", request.url);
  if (failure) return failure;
  const u = new URL(request.url);
  const type = request.type ?? "sitemap";
  const rng = createRng(ctx.seed, "sitemap", request);
  if (type === "sitemap") return { ok: true, value: { links: sameHostLinks(rng, u.origin, rng.int(5, 25)) } };
  const own = sameHostLinks(rng, u.origin, rng.int(4, 15));
  const other = otherHostLinks(rng, u.hostname, rng.int(3, 8));
  // a page's links come in document order, not grouped by host
  return { ok: true, value: { links: rng.sample([...own, ...other], own.length + other.length) } };
}
