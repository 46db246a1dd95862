import { describe, expect, it } from "vitest";
import { DEFAULT_HTML_LIMITS, guardHtml } from "./html-guard.ts";

const limits = { maxElements: 1_000, maxDepth: 5, maxLinks: 10 };

describe("guardHtml (issue 12, D-parse-limits)", () => {
  it("leaves a page within the caps untouched", () => {
    const html = "<html><body><div><p>one<p>two</div><img src=x><br></body></html>";
    expect(guardHtml(html, limits, "refuse")).toMatchObject({ ok: true, html, flattened: 0, elements: 7 });
  });

  it("flattens what lies deeper than the cap: the tags go, the text stays", () => {
    const html = `${"<div>".repeat(8)}deep text${"</div>".repeat(8)}`;
    const g = guardHtml(html, limits, "refuse");
    expect(g).toMatchObject({ ok: true, flattened: 3, html: `${"<div>".repeat(5)}deep text${"</div>".repeat(5)}` });
  });

  it("does not count elements whose end tag is optional as nesting (unclosed <p> and <li> are siblings)", () => {
    const html = `<ul>${"<li><p>item".repeat(50)}</ul>`;
    expect(guardHtml(html, limits, "refuse")).toMatchObject({ ok: true, flattened: 0 });
  });

  it("reads script and style as text, and quoted attribute values as values", () => {
    const html = `<div title="a>b"><script>${"<div>".repeat(50)}</script><style>a>b{}</style>x</div>`;
    expect(guardHtml(html, limits, "refuse")).toMatchObject({ ok: true, flattened: 0, elements: 3, html });
  });

  it("refuses past the element or link cap for a crawl, and reads up to it for a link scan", () => {
    const links = Array.from({ length: 20 }, (_, i) => `<a href="/${i}">${i}</a>`).join("");
    expect(guardHtml(links, limits, "refuse")).toEqual({ ok: false, reason: "more than 10 links" });
    const scan = guardHtml(links, limits, "truncate");
    expect(scan).toMatchObject({ ok: true, truncated: true, links: 11 });
    expect(scan.ok && scan.html.match(/<a /g)?.length).toBe(10);
    expect(guardHtml("<i>x</i>".repeat(1_001), limits, "refuse")).toEqual({
      ok: false,
      reason: "more than 1000 elements",
    });
  });

  it("takes pathological markup in one pass (unterminated tags and quotes, stray end tags, 100,000 nested divs)", () => {
    expect(guardHtml(`<a title="${"<a ".repeat(200_000)}`, DEFAULT_HTML_LIMITS, "refuse").ok).toBe(true);
    expect(guardHtml(`<div>${"</span>".repeat(200_000)}`, DEFAULT_HTML_LIMITS, "refuse").ok).toBe(true);
    const deep = guardHtml(`${"<b>".repeat(40_000)}x${"</b>".repeat(40_000)}`, DEFAULT_HTML_LIMITS, "refuse");
    expect(deep).toMatchObject({ ok: true, flattened: 40_000 - DEFAULT_HTML_LIMITS.maxDepth });
  });
});
