// Sitemap semantics on the fixture site (interface-spec "POST /sitemap" behaviour 1-4). Needs a target that fetches
// real pages (canary probe).
import { describe, failure, json, status } from "../check-helpers.ts";
import { CONVENTIONAL_ONLY_PAGE } from "../fixtures/fixture-server.ts";
import { SITEMAP_PAGES } from "../fixtures/site-facts.ts";
import type { CheckDefinition, Exchange, Failure, RunContext } from "../types.ts";
import { fixture } from "./semantics-crawl.ts";

const OTHER_HOST = "https://example.org/";

async function links(ctx: RunContext, by: string, body: unknown): Promise<{ ex: Exchange; links: string[] | null }> {
  const ex = await ctx.http.call(by, "POST", "/sitemap", { body });
  const l = json<{ links?: unknown }>(ex)?.links;
  return { ex, links: status(ex) === 200 && Array.isArray(l) ? l.map(String) : null };
}

const followsRobots: CheckDefinition = {
  id: "sitemap-follows-robots",
  title: "type sitemap follows robots.txt, a sitemap index and a gzipped sitemap, keeping to the requested host",
  severity: "major",
  section: "POST /sitemap (behaviour 1)",
  basis: { kind: "contract" },
  operations: ["sitemap"],
  preconditions: ["fetches-real-pages"],
  cost: () => 1,
  async run(ctx) {
    const { ex, links: l } = await links(ctx, this.id, { url: fixture(ctx, "/links.html"), type: "sitemap" });
    if (!l) return { failures: [failure("no links", [ex], "200 with links[]", describe(ex))] };
    const failures: Failure[] = [];
    for (const { path } of SITEMAP_PAGES)
      if (!l.includes(fixture(ctx, path)))
        failures.push(failure(`the gzipped child sitemap's ${path} is missing`, [ex]));
    if (l.some((u) => u.startsWith(OTHER_HOST))) failures.push(failure("a URL of another host was returned", [ex]));
    return { failures };
  },
};

const fallback: CheckDefinition = {
  id: "sitemap-fallback-links",
  title: "type sitemap on a site without sitemap falls back to the links of the page",
  severity: "minor",
  section: "POST /sitemap (behaviour 2)",
  basis: { kind: "contract" },
  operations: ["sitemap"],
  preconditions: ["fetches-real-pages"],
  cost: () => 1,
  async run(ctx) {
    const base = ctx.options.fixtureNoSitemapUrl;
    if (!base)
      return {
        failures: [],
        skip: "the fixture site has no origin without sitemap (served by the run itself, serve-fixtures, or fixtures export --no-sitemap-url)",
        skipKind: "fixture-incomplete",
      };
    const { ex, links: l } = await links(ctx, this.id, { url: `${base}/links.html`, type: "sitemap" });
    if (!l) return { failures: [failure("no links", [ex], "200 with links[]", describe(ex))] };
    const want = `${base}/docs/one.html`;
    return {
      failures: l.includes(want) ? [] : [failure("the page's links were not returned", [ex], want, l.join(", "))],
    };
  },
};

const typeAll: CheckDefinition = {
  id: "sitemap-type-all",
  title: "type all returns every link of the page, other hosts included",
  severity: "minor",
  section: "POST /sitemap (behaviour 3)",
  basis: { kind: "contract" },
  operations: ["sitemap"],
  preconditions: ["fetches-real-pages"],
  cost: () => 1,
  async run(ctx) {
    const { ex, links: l } = await links(ctx, this.id, { url: fixture(ctx, "/links.html"), type: "all" });
    if (!l) return { failures: [failure("no links", [ex], "200 with links[]", describe(ex))] };
    const failures: Failure[] = [];
    if (!l.some((u) => u.startsWith(OTHER_HOST))) failures.push(failure("the link to another host is missing", [ex]));
    if (!l.includes(fixture(ctx, "/docs/two.html"))) failures.push(failure("a same-host link is missing", [ex]));
    return { failures };
  },
};

const conventional: CheckDefinition = {
  id: "sitemap-conventional-path",
  title: "type sitemap on a site whose robots.txt names no sitemap reads the conventional /sitemap.xml",
  severity: "minor",
  section: "POST /sitemap (behaviour 1)",
  basis: { kind: "contract" },
  operations: ["sitemap"],
  preconditions: ["fetches-real-pages"],
  cost: () => 1,
  async run(ctx) {
    const base = ctx.options.fixtureConventionalUrl;
    if (!base)
      return {
        failures: [],
        skip: "the fixture site has no origin with a conventional sitemap (served by the run itself, serve-fixtures, or fixtures export --conventional-url)",
        skipKind: "fixture-incomplete",
      };
    const { ex, links: l } = await links(ctx, this.id, { url: `${base}/links.html`, type: "sitemap" });
    if (!l) return { failures: [failure("no links", [ex], "200 with links[]", describe(ex))] };
    // no page links to it: only the sitemap at the conventional path declares it
    const want = `${base}${CONVENTIONAL_ONLY_PAGE}`;
    return {
      failures: l.includes(want) ? [] : [failure("the conventional sitemap was not read", [ex], want, l.join(", "))],
    };
  },
};

const noPageContent: CheckDefinition = {
  id: "sitemap-no-page-content",
  title: "Neither sitemap mode fetches page content: the pages it lists are never requested from the site",
  severity: "minor",
  section: "POST /sitemap (behaviour 4)",
  basis: { kind: "contract" },
  operations: ["sitemap"],
  preconditions: ["fetches-real-pages"],
  cost: () => 2,
  async run(ctx) {
    const read = ctx.options.fixtureRequests;
    if (!read)
      return {
        failures: [],
        skip: "the fixture site's request log is unknown: the run serves the site itself, or give the host's access log (--fixture-log FILE; serve-fixtures --log FILE)",
        skipKind: "fixture-incomplete",
      };
    // on the conventional origin, which no other check crawls: a deepcrawl of the main origin (started by this run's
    // deepcrawl or bound checks) fetches its pages by design, possibly while this check watches the log
    const base = ctx.options.fixtureConventionalUrl;
    if (!base)
      return {
        failures: [],
        skip: "the fixture site has no origin with a conventional sitemap (served by the run itself, serve-fixtures, or fixtures export --conventional-url)",
        skipKind: "fixture-incomplete",
      };
    const failures: Failure[] = [];
    const paths = [...SITEMAP_PAGES.map((p) => p.path), CONVENTIONAL_ONLY_PAGE];
    const listed = new Set(paths.map((p) => `${base}${p}`));
    // a log naming no host (Common Log Format) gives paths: they are matched on any origin
    const isListed = (u: string) => listed.has(u) || (u.startsWith("/") && paths.includes(u));
    for (const type of ["sitemap", "all"]) {
      const before = read().length;
      const { ex } = await links(ctx, this.id, { url: `${base}/links.html`, type });
      const fetched = read()
        .slice(before)
        .filter((u) => isListed(u.split("?")[0]));
      if (fetched.length)
        failures.push(
          failure(
            `type ${type} fetched the listed pages`,
            [ex],
            "only robots.txt, sitemaps and the given page",
            fetched.join(", "),
          ),
        );
    }
    return { failures };
  },
};

export const SITEMAP_SEMANTIC_CHECKS = [followsRobots, fallback, typeAll, conventional, noPageContent];
