// Page semantics that hold on any target, synthetic ones included (issue 17): they judge the shape of what a target
// returns for a page, not that it matches the fixture site's pages, so they need no canary. On a target that
// fetches real pages the same calls read the fixture site (target-urls.ts), where they bite harder.
import { baseBody } from "@plumbline-kit/contract/bounds";
import { describe, failure, json, status } from "../check-helpers.ts";
import { pricedCallsProbe } from "../probes/priced-calls.ts";
import { fixturePageUrl } from "../probes/target-urls.ts";
import type { CheckDefinition, Failure } from "../types.ts";

// markup and the fixture site's script and style markers (conformance/fixtures/site/article.html)
const SCRIPT_OR_STYLE = [/<script\b/i, /<\/script>/i, /<style\b/i, /<\/style>/i, /PLB_SCRIPT_MARKER/, /\.banner\s*\{/];

const crawlNoScript: CheckDefinition = {
  id: "crawl-no-script-style",
  title: "Crawl content carries no script or style text",
  severity: "major",
  section: "POST /crawl",
  basis: { kind: "contract" },
  operations: ["crawl"],
  probes: [pricedCallsProbe],
  async run(ctx) {
    // the priced crawl's answer: a page crawled once is judged by every check that looks at it
    const call = (await ctx.probe(pricedCallsProbe)).find((p) => p.operationId === "crawl");
    if (!call) return { failures: [], skip: "no crawl was made (see billing-price-per-operation)" };
    const ex = call.measured.result;
    const content = json<{ results?: { content?: unknown } }>(ex)?.results?.content;
    if (status(ex) !== 200 || typeof content !== "string")
      return { failures: [failure("the crawl gave no content", [ex], "200 with results.content", describe(ex))] };
    const failures: Failure[] = SCRIPT_OR_STYLE.filter((re) => re.test(content)).map((re) =>
      failure(
        `the content holds script or style text (${re.source})`,
        [ex],
        "readable text only",
        content.slice(0, 200),
      ),
    );
    return { failures };
  },
};

const hostOf = (u: string) => {
  try {
    return new URL(u).host;
  } catch {
    return null;
  }
};

const sitemapHost: CheckDefinition = {
  id: "sitemap-requested-host",
  title: "type sitemap lists only links of the requested host (type all may list others)",
  severity: "major",
  section: "POST /sitemap (behaviour 1, 3)",
  basis: { kind: "contract" },
  operations: ["sitemap"],
  cost: () => 1,
  async run(ctx) {
    const example = String(baseBody(ctx.contract.operation("sitemap")).url);
    const url = await fixturePageUrl(ctx, "/links.html", example);
    const ex = await ctx.http.call(this.id, "POST", "/sitemap", { body: { url, type: "sitemap" } });
    const links = json<{ links?: unknown }>(ex)?.links;
    if (status(ex) !== 200 || !Array.isArray(links))
      return { failures: [failure("no links", [ex], "200 with links[]", describe(ex))] };
    const host = hostOf(url);
    const others = links.map(String).filter((l) => hostOf(l) !== host);
    if (others.length === 0) return { failures: [], notes: [`${links.length} links, all of ${host}`] };
    return {
      failures: [failure("type sitemap listed links of other hosts", [ex], `links of ${host} only`, others.join(", "))],
    };
  },
};

export const ANY_TARGET_SEMANTIC_CHECKS = [crawlNoScript, sitemapHost];
