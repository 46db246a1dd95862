// The bounded robots.txt matcher (issue 38) against robots-parser's own: the same answer for every file and URL a
// seeded generator makes (groups, user agents, `*`, `$`, percent escapes, queries, comments), rules past
// MAX_ROBOTS_RULE_CHARS dropped and counted (their group kept), a rule at the cap kept.
import fc from "fast-check";
import robots from "robots-parser";
import { describe, expect, it } from "vitest";
import { MAX_ROBOTS_RULE_CHARS, parseRobotsTxt, patternMatches, withoutOverlongRules } from "./robots-txt.ts";

const robotsParser = robots as unknown as (typeof robots)["default"];
const UA = "plumbline/1.0";
const BASE = "http://site.test";

const piece = fc.constantFrom("/", "a", "b", "ab", "*", "$", "?", "=", "%2f", "%2F", ".", "-", "é");
const pattern = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
const path = fc.array(fc.constantFrom("/", "a", "b", "ab", "?", "=", "$", "%2f", "%2F", ".", "é"), { maxLength: 10 });
const line = fc.oneof(
  fc.tuple(fc.constantFrom("Allow", "Disallow", "disallow ", "ALLOW"), pattern).map(([k, p]) => `${k}: ${p}`),
  fc.constantFrom("User-agent: *", "User-agent: plumbline", "User-agent: Plumbline/2", "User-agent: other"),
  fc.constantFrom("Crawl-delay: 2", "Sitemap: http://site.test/s.xml", "# comment", "", "Disallow: /x # note"),
);

describe("parseRobotsTxt", () => {
  it("answers as robots-parser does, for every generated file and URL (seeded)", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), fc.array(path, { minLength: 1, maxLength: 6 }), (lines, paths) => {
        const text = lines.join("\n");
        const ours = parseRobotsTxt(`${BASE}/robots.txt`, text, UA);
        const theirs = robotsParser(`${BASE}/robots.txt`, text);
        for (const p of paths) {
          const url = `${BASE}/${p.join("")}`;
          expect(ours.isAllowed(url), `${url} against\n${text}`).toBe(theirs.isAllowed(url, UA));
        }
        expect(ours.isAllowed("http://other.test/a")).toBeUndefined();
        expect(ours.crawlDelay).toBe(theirs.getCrawlDelay(UA));
        expect(ours.sitemaps).toEqual(theirs.getSitemaps());
        expect(ours.droppedRules).toBe(0);
      }),
      { seed: 38, numRuns: 3000 },
    );
  });

  it("matches one pattern as robots-parser does, on a small alphabet where pieces overlap (seeded)", () => {
    const small = fc
      .array(fc.constantFrom("a", "b", "/", "*", "*", "$"), { maxLength: 9 })
      .map((p) => `/${p.join("")}`);
    const target = fc.array(fc.constantFrom("a", "b", "/", "$"), { maxLength: 9 }).map((p) => `/${p.join("")}`);
    fc.assert(
      fc.property(small, target, (p, t) => {
        const text = `User-agent: *\nDisallow: ${p}\n`;
        const expected = robotsParser(`${BASE}/robots.txt`, text).isAllowed(`${BASE}${t}`, UA);
        expect(parseRobotsTxt(`${BASE}/robots.txt`, text, UA).isAllowed(`${BASE}${t}`), `${p} ~ ${t}`).toBe(expected);
      }),
      { seed: 38, numRuns: 20_000 },
    );
  });

  it("matches the patterns robots-parser's tests and RFC 9309's examples spell", () => {
    const cases: Array<[string, string, boolean]> = [
      ["/fish", "/fish.html", true],
      ["/fish", "/Fish.asp", false],
      ["/fish*", "/fishheads/yummy.html", true],
      ["/*.php", "/folder/filename.php?parameters", true],
      ["/*.php$", "/filename.php?parameters", false],
      ["/*.php$", "/filename.php", true],
      ["/fish*.php", "/fishheads/catfish.php?parameters", true],
      ["/fish*.php", "/Fish.PHP", false],
      ["*", "/", true],
      ["/$", "/", true],
      ["/$", "/a", false],
      ["/a*b*c$", "/abxbyc", true],
      ["/a*b*c$", "/abxbycd", false],
    ];
    for (const [p, target, expected] of cases) {
      const anchored = p.endsWith("$");
      expect(patternMatches((anchored ? p.slice(0, -1) : p).split("*"), anchored, target), `${p} ~ ${target}`).toBe(
        expected,
      );
    }
  });

  it("drops a rule longer than MAX_ROBOTS_RULE_CHARS and keeps one at the cap", () => {
    // a wildcard rule that, kept, would disallow every path (and cost pattern × path length per URL to match)
    const huge = `/*${"*".repeat(500_000)}`;
    const atCap = `/b*${"c".repeat(MAX_ROBOTS_RULE_CHARS - 3)}`;
    expect(atCap).toHaveLength(MAX_ROBOTS_RULE_CHARS);
    const text = [
      "User-agent: *",
      `Disallow: ${huge}`,
      `Disallow: ${atCap}`,
      "Disallow: /private",
      "Sitemap: http://site.test/sitemap.xml",
    ].join("\n");
    const r = parseRobotsTxt(`${BASE}/robots.txt`, text, UA);
    expect(r.droppedRules).toBe(1);
    expect(r.isAllowed(`${BASE}/page.html`)).toBe(true);
    expect(r.isAllowed(`${BASE}/private/x`)).toBe(false);
    expect(r.isAllowed(`${BASE}/b/${"c".repeat(MAX_ROBOTS_RULE_CHARS)}`)).toBe(false);
    expect(r.sitemaps).toEqual(["http://site.test/sitemap.xml"]);
  });

  it("a group whose only rule was dropped still names its user agent (no fall back to *)", () => {
    const text = `User-agent: plumbline\nDisallow: /${"x".repeat(MAX_ROBOTS_RULE_CHARS)}\n\nUser-agent: *\nDisallow: /\n`;
    expect(withoutOverlongRules(text).dropped).toBe(1);
    const r = parseRobotsTxt(`${BASE}/robots.txt`, text, UA);
    expect(r.isAllowed(`${BASE}/anything`)).toBe(true);
    expect(parseRobotsTxt(`${BASE}/robots.txt`, text, "otherbot").isAllowed(`${BASE}/anything`)).toBe(false);
  });
});
