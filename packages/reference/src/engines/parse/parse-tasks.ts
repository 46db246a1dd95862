// The parsing the reference does on a page, as plain functions of plain data (issue 12): what runs in the worker
// pool (parse-pool.ts), or in the calling thread when no pool is given (createInlineParser). The guard comes first,
// so no DOM is built of a page past the caps (D-parse-limits).
import type { Schemas } from "@plumbline-kit/contract";
import { type ArxivEntry, readArxivFeed } from "../../search/upstream/arxiv-feed.ts";
import { decodeText } from "../content-type.ts";
import { type PageFacts, readPageFacts, textFacts } from "../extract/page-facts.ts";
import { type ExtractedPage, extractHtml } from "../html-extract.ts";
import { guardHtml, type HtmlLimits } from "../html-guard.ts";
import { pageLinks } from "../page-links.ts";
import { runsScript } from "../script-signal.ts";
import { parseSitemap, type SitemapDocument } from "../sitemap-parse.ts";
import { textPage } from "../text-page.ts";
import { unreadableText } from "../text-sniff.ts";
import { parseGithubTrending } from "../trending/github-trending.ts";

/** A fetched body as the crawl needs it: the bytes are decoded here too, so the event loop only moves bytes. */
export interface PageBody {
  body: Uint8Array;
  /** the Content-Type header (its charset) and the media type without parameters */
  contentType?: string;
  mediaType: string;
  bodyKind: "html" | "text";
  url: string;
  contentLanguage?: string;
}

/** What a fetched body reads as (D-target-refusal: text that does not decode is unreadable). */
export type ReadPage =
  | { kind: "unreadable" }
  | { kind: "html"; page: ExtractedPage; runsScript: boolean }
  | { kind: "text"; title: string; content: string };

/** What /extract reads of a fetched body: its facts, and its Markdown when a model is to read the page. */
export interface PageReading {
  facts: PageFacts;
  /** the page as Markdown (the text itself for a text body); null unless asked for */
  markdown: string | null;
}

export type ParseTask =
  | { kind: "extract"; html: string; url: string; contentLanguage?: string; limits: HtmlLimits }
  | { kind: "links"; html: string; url: string; limits: HtmlLimits }
  | { kind: "sitemap"; body: string }
  | ({ kind: "page"; limits: HtmlLimits } & PageBody)
  | ({ kind: "page-links"; limits: HtmlLimits } & PageBody)
  | ({ kind: "facts"; limits: HtmlLimits; markdown: boolean } & PageBody)
  | { kind: "github-trending"; body: Uint8Array; baseUrl: string; limit: number; limits: HtmlLimits }
  | { kind: "arxiv-feed"; body: string; maxEntries: number };

/** A page the guard refused comes back as `refused`, with the cap it passed. */
export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; refused: string };

export type TaskValue<K extends ParseTask["kind"]> = K extends "extract"
  ? ExtractedPage
  : K extends "links"
    ? string[]
    : K extends "page"
      ? ReadPage
      : K extends "page-links"
        ? string[]
        : K extends "facts"
          ? PageReading
          : K extends "github-trending"
            ? Schemas["TrendingResult"][]
            : K extends "arxiv-feed"
              ? { entry?: ArxivEntry[] } | null
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
    case "page":
      return readPage(task, task.limits);
    case "page-links":
      return runParseTask({ kind: "links", html: decoded(task, "html"), url: task.url, limits: task.limits });
    case "facts":
      return readFacts(task, task.limits, task.markdown);
    case "arxiv-feed":
      return { ok: true, value: readArxivFeed(task.body, task.maxEntries) };
    case "github-trending": {
      // an upstream's page is untrusted HTML as much as a target's: the same guard before any DOM is built
      const html = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength).toString("utf8");
      const g = guardHtml(html, task.limits, "refuse");
      if (!g.ok) return { ok: false, refused: g.reason };
      return { ok: true, value: parseGithubTrending(g.html, task.baseUrl, task.limit) };
    }
  }
}

/** The body's text under its declared charset (a structured clone hands the bytes over as a Uint8Array). */
function decoded(p: PageBody, kind: PageBody["bodyKind"]): string {
  return decodeText(Buffer.from(p.body.buffer, p.body.byteOffset, p.body.byteLength), p.contentType, kind);
}

function readPage(p: PageBody, limits: HtmlLimits): ParseOutcome<ReadPage> {
  const text = decoded(p, p.bodyKind);
  if (unreadableText(text)) return { ok: true, value: { kind: "unreadable" } };
  if (p.bodyKind === "text") return { ok: true, value: { kind: "text", ...textPage(text, p.mediaType, p.url) } };
  const g = guardHtml(text, limits, "refuse");
  if (!g.ok) return { ok: false, refused: g.reason };
  return {
    ok: true,
    value: { kind: "html", page: extractHtml(g.html, p.url, p.contentLanguage), runsScript: runsScript(text) },
  };
}

/** /extract's reading of a body (issue 38): decoded, guarded like a crawl's page, then read for its facts. */
function readFacts(p: PageBody, limits: HtmlLimits, markdown: boolean): ParseOutcome<PageReading> {
  const text = decoded(p, p.bodyKind);
  if (p.bodyKind === "text")
    return { ok: true, value: { facts: textFacts(text, p.url), markdown: markdown ? text : null } };
  const g = guardHtml(text, limits, "refuse");
  if (!g.ok) return { ok: false, refused: g.reason };
  return {
    ok: true,
    value: {
      facts: readPageFacts(g.html, p.url),
      markdown: markdown ? extractHtml(g.html, p.url, p.contentLanguage).markdown : null,
    },
  };
}
