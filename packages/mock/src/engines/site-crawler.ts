// Synthetic SiteCrawler for deepcrawl (D-deepcrawl-type, D-deepcrawl-zip): discover() lists 3..12 URLs on the
// host for `sitemap` and 8..20 for `all`, the start URL first; fetchPage() returns the same page crawl would
// (site-page.ts), or status NNN with no Markdown for a `/status/NNN` URL (target-status.ts). variability "max"
// slips a failing page into the list so packagers meet a partial crawl.
import type { CrawledPage, EngineContext, EngineResult, SiteCrawler } from "@plumbline-kit/platform/engines";
import { createRng } from "./rng.ts";
import { sameHostLinks } from "./site-links.ts";
import { sitePage } from "./site-page.ts";
import { targetFailure, targetStatus } from "./target-status.ts";

export function createSiteCrawler(now: () => Date): SiteCrawler {
  return {
    async discover(url: string, type: "sitemap" | "all", ctx: EngineContext): Promise<EngineResult<string[]>> {
      const failure = targetFailure("deepcrawl", url);
      if (failure) return failure;
      const u = new URL(url);
      const rng = createRng(ctx.seed, "discover", url, type);
      const count = type === "all" ? rng.int(8, 20) : rng.int(3, 12);
      const links = new Set<string>([u.href]);
      for (const link of sameHostLinks(rng, u.origin, count)) {
        if (links.size >= count) break;
        links.add(link);
      }
      const list = [...links];
      if (ctx.variability === "max" && rng.chance(0.6)) {
        list[list.length - 1] =
          `${u.origin}/${rng.pick(["old", "archive", "legacy"])}/status/${rng.pick([404, 410, 500])}`;
      }
      return { ok: true, value: list };
    },
    async fetchPage(url: string, ctx: EngineContext): Promise<CrawledPage> {
      const fetchedAt = now().toISOString();
      const status = targetStatus(url);
      if (status !== null) return { url, title: null, status, markdown: null, fetchedAt };
      const page = sitePage(ctx.seed, url);
      return { url, title: page.title, status: 200, markdown: page.markdown, fetchedAt };
    },
  };
}
