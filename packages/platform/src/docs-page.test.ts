// The /docs page is generated from the contract alone: every operation, decision and catalogue code is on it, the
// bounds come from the schemas, it loads nothing from outside, and no text from the document becomes markup.

import { type Contract, ERROR_CATALOGUE, loadContract } from "@plumbline-kit/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocsPage } from "./docs-page.ts";

let contract: Contract;
let html: string;
beforeAll(async () => {
  contract = await loadContract();
  html = renderDocsPage(contract);
});

/** The HTML of one operation's section. */
function section(operationId: string): string {
  const start = html.indexOf(`<section class="operation" id="op-${operationId}">`);
  expect(start, operationId).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</section>", start));
}

/** The text of the table row whose first cell names `field`. */
function row(sectionHtml: string, field: string): string {
  const at = sectionHtml.indexOf(`<code>${field}</code></td>`);
  expect(at, field).toBeGreaterThan(-1);
  return sectionHtml.slice(at, sectionHtml.indexOf("</tr>", at)).replace(/<[^>]+>/g, " ");
}

describe("renderDocsPage", () => {
  it("is one HTML document with a title and a table of contents", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<title>Web Search, Crawl and Extraction Service 1.0.0: API reference</title>");
    expect(renderDocsPage(contract, { title: "Custom & title" })).toContain("<title>Custom &amp; title</title>");
    for (const anchor of ["#operations", "#decisions", "#errors"]) expect(html).toContain(`href="${anchor}"`);
  });

  it("documents every operation with its method, path, summary, auth, price and statuses", () => {
    for (const op of contract.operations) {
      expect(html).toContain(`href="#op-${op.operationId}"`);
      const s = section(op.operationId);
      expect(s).toContain(`<code>${op.operationId}</code>`);
      expect(s).toContain(`<span class="method ${op.method}">${op.method.toUpperCase()}</span>`);
      expect(s).toContain(`<code class="path">${op.path}</code>`);
      if (op.pricing) expect(s).toContain(`${op.pricing.price} USD`);
      else expect(s).toContain("Free.");
      for (const status of op.statuses) expect(s).toContain(`<strong>${status}</strong>`);
      if (op.batchMax) expect(s).toContain(`Up to ${op.batchMax} entries`);
    }
  });

  it("renders request bodies as field tables with bounds, enums and defaults from the schemas", () => {
    const search = section("search");
    expect(search).toContain("an object, or an array of 1..50 objects");
    expect(row(search, "max_results")).toMatch(/1\.\.50/);
    expect(row(search, "crawl_results")).toMatch(/0\.\.50/);
    expect(row(search, "query")).toMatch(/required/);
    const screenshot = section("screenshot");
    expect(row(screenshot, "width")).toMatch(/320\.\.2560.*default 1440/s);
    expect(row(screenshot, "height")).toMatch(/200\.\.1440.*default 900/s);
    expect(row(screenshot, "device_scale_factor")).toMatch(/1\.\.2/);
    expect(row(screenshot, "format")).toMatch(/one of: png, jpeg, webp/);
    // viewport's fields are indented under it
    expect(screenshot).toMatch(/padding-left: 2rem"><span class="nest">↳<\/span> <code>width<\/code>/);
    expect(row(section("trending"), "max_results")).toMatch(/default 10.*capped at 50/s);
    expect(row(section("usage"), "period")).toMatch(/one of: day, week, month, year/);
  });

  it("shows request examples as pretty JSON", () => {
    expect(section("search")).toContain("&quot;query&quot;: &quot;rust async runtime comparison&quot;");
    expect(section("search")).toContain("A batch of two searches");
  });

  it("lists every decision and every catalogue code", () => {
    for (const d of contract.decisions) expect(html).toContain(`id="${d.id}"`);
    for (const [code, e] of Object.entries(ERROR_CATALOGUE)) {
      expect(html).toContain(`<code>${code}</code>`);
      expect(html).toContain(e.message.replace(/'/g, "&apos;"));
    }
    expect(html).toContain('<a href="#D-batch-limits" class="decision-ref">D-batch-limits</a>');
  });

  it("needs nothing from outside: no scripts, external stylesheets or fonts", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link[^>]+stylesheet/i);
    expect(html).not.toMatch(/@import|@font-face|url\(/i);
    expect(html).not.toMatch(/(src|href)="https?:/i);
  });

  it("escapes text from the document", () => {
    // D-headers' decision text holds `</openapi.json>; rel="service-desc"`
    expect(html).toContain("&lt;/openapi.json&gt;; rel=&quot;service-desc&quot;");
    expect(html).not.toContain("</openapi.json>");
    const evil = "<img src=x onerror=alert(1)>";
    const tampered: Contract = {
      ...contract,
      operations: contract.operations.map((o) => (o.operationId === "health" ? { ...o, summary: `${evil} & co` } : o)),
      decisions: [{ id: "D-evil", topic: evil, contract: "`<b>`", decision: 'a < b "quoted"', reason: "x" }],
    };
    const page = renderDocsPage(tampered, { title: "</title><script>alert(1)</script>" });
    expect(page).not.toContain("<img");
    expect(page).not.toContain("<script");
    expect(page).not.toContain("<b>");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; co");
    expect(page).toContain("<code>&lt;b&gt;</code>");
    expect(page).toContain("a &lt; b &quot;quoted&quot;");
  });
});
