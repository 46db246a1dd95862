// The parsing the reference does on a page, as plain functions of plain data (issue 12): what runs in the worker
// pool (parse-pool.ts), or in the calling thread when no pool is given (createInlineParser). The guard comes first,
// so no DOM is built of a page past the caps (D-parse-limits).
import { type ExtractedPage, extractHtml } from "../html-extract.ts";
import { guardHtml, type HtmlLimits } from "../html-guard.ts";
import { pageLinks } from "../page-links.ts";
import { parseSitemap, type SitemapDocument } from "../sitemap-parse.ts";

export type ParseTask =
  | { kind: "extract"; html: string; url: string; contentLanguage?: string; limits: HtmlLimits }
  | { kind: "links"; html: string; url: string; limits: HtmlLimits }
  | { kind: "sitemap"; body: string };

/** A page the guard refused comes back as `refused`, with the cap it passed. */
export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; refused: string };

export type TaskValue<K extends ParseTask["kind"]> = K extends "extract"
  ? ExtractedPage
  : K extends "links"
    ? string[]
    : SitemapDocument;

export function runParseTask(task: ParseTask): ParseOutcome<unknown> {
  switch (task.kind) {
    case "extract": {
      const g = guardHtml(task.html, task.limits, "refuse");
      if (!g.ok) return { ok: false, refused: g.reason };
      return { ok: true, value: extractHtml(g.html, task.url, task.contentLanguage) };
    }
    case "links": {
      const g = guardHtml(task.html, task.limits, "truncate");
      if (!g.ok) return { ok: false, refused: g.reason };
      return { ok: true, value: pageLinks(g.html, task.url) };
    }
    case "sitemap":
      return { ok: true, value: parseSitemap(task.body) };
  }
}
