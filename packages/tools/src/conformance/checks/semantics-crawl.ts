// Crawl semantics on the fixture site (interface-spec "POST /crawl": title and body as clean text, navigation,
// boilerplate and scripts removed; 404 and 410 listed). Needs a target that fetches real pages (canary probe).
import { describe, failure, json, ok, status } from "../check-helpers.ts";
import type { CheckDefinition, Failure, RunContext } from "../types.ts";

export const fixture = (ctx: RunContext, path: string) =>
  `${(ctx.options.fixtureUrl ?? "").replace(/\/+$/, "")}${path}`;

const MUST = ["The plumbline fixture article explains", "twice a day"];
const MUST_NOT = ["PLB_SCRIPT_MARKER", "PLB_NAV_MARKER", "PLB_COOKIE_MARKER"];

const readableText: CheckDefinition = {
  id: "crawl-readable-text",
  title: "Crawl content is the page's readable text, without scripts, navigation or the cookie banner",
  severity: "major",
  section: "POST /crawl",
  basis: { kind: "contract" },
  operations: ["crawl"],
  preconditions: ["fetches-real-pages"],
  cost: () => 1,
  async run(ctx) {
    const ex = await ctx.http.call(this.id, "POST", "/crawl", { body: { url: fixture(ctx, "/article.html") } });
    const r = json<{ results?: { title?: unknown; content?: unknown } }>(ex)?.results;
    if (status(ex) !== 200 || typeof r?.content !== "string")
      return { failures: [failure("the fixture article was not crawled", [ex], "200 with content", describe(ex))] };
    const failures: Failure[] = [];
    const content = r.content;
    for (const m of MUST)
      if (!content.includes(m)) failures.push(failure(`content lacks the article text "${m}"`, [ex]));
    for (const m of MUST_NOT) if (content.includes(m)) failures.push(failure(`content holds boilerplate ${m}`, [ex]));
    if (typeof r.title !== "string" || !r.title.includes("Tidal energy"))
      failures.push(failure("title is not the page's", [ex], "Tidal energy in small harbours", String(r.title)));
    return failures.length ? { failures } : ok();
  },
};

const targetStatus: CheckDefinition = {
  id: "crawl-target-status",
  title: "A crawl target answering 404 or 410 gives 404 or 410",
  severity: "major",
  section: "POST /crawl; Errors",
  basis: { kind: "contract" },
  operations: ["crawl"],
  preconditions: ["fetches-real-pages"],
  // D-charging: a crawl answered 404/410 is charged
  cost: () => 2,
  async run(ctx) {
    const failures: Failure[] = [];
    const notes: string[] = [];
    const pages = ctx.options.fixtureStatusPages ?? { "404": "/status/404", "410": "/status/410" };
    for (const code of [404, 410] as const) {
      const path = pages[code];
      if (path === null) {
        // a static export: a missing file answers 404, and no static host answers 410 without its own configuration
        notes.push(`${code} not judged: the fixture site (a static export) has no page answering ${code}`);
        continue;
      }
      const ex = await ctx.http.call(this.id, "POST", "/crawl", { body: { url: fixture(ctx, path) } });
      if (status(ex) !== code) failures.push(failure(`a target answering ${code}`, [ex], `${code}`, describe(ex)));
    }
    return { failures, notes };
  },
};

export const CRAWL_SEMANTIC_CHECKS = [readableText, targetStatus];
