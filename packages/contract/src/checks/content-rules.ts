// What an answer's content owes the request it answers, judged from the exchange alone (no fixture page needed):
// a screenshot of the format and size asked, whole; crawl text without scripts; extract results of the
// response_format supplied; sitemap links of the requested host; a deepcrawl's zip readable with its manifest.
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { FieldError } from "../error-body.ts";
import type { JsonSchema } from "../json-schema.ts";
import { createAjv, toFieldErrors } from "../validators.ts";
import { imageComplete, readImageHeader } from "./image-header.ts";
import type { ExchangeContext, ExchangeRule, Violation } from "./types.ts";
import { readPackage } from "./zip-package.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

const schemaOf = (ctx: ExchangeContext, name: string) =>
  ctx.contract.document.components?.schemas?.[name] as JsonSchema | undefined;

/** The request's value of a property, else the schema's default of it. */
function withDefault(ctx: ExchangeContext, schema: string, sent: Obj, name: string): unknown {
  if (name in sent) return sent[name];
  return (schemaOf(ctx, schema)?.properties?.[name] as JsonSchema | undefined)?.default;
}

const okAnswer = (ctx: ExchangeContext, operationId: string) =>
  ctx.op?.operationId === operationId && ctx.status === 200;

export const screenshotImage: ExchangeRule = {
  kind: "exchange",
  id: "screenshot-image",
  title: "A screenshot is a whole image of the format asked: its content type, its header, its end",
  side: "response",
  severity: "critical",
  basis: "POST /screenshot",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const sent = obj(ctx.sent);
    if (!okAnswer(ctx, "screenshot") || !sent || !ctx.bytes) return [];
    const format = String(withDefault(ctx, "ScreenshotRequest", sent, "format") ?? "png");
    const want = `image/${format}`;
    const out: Violation[] = [];
    if (ctx.contentType !== want)
      out.push({ rule: this.id, message: "another image type than asked", expected: want, actual: ctx.contentType });
    const header = readImageHeader(ctx.bytes);
    if (header?.format !== format)
      out.push({
        rule: this.id,
        message: `the bytes are not a ${format} image`,
        expected: format,
        actual: header?.format ?? `${ctx.bytes.length} unrecognised bytes`,
      });
    else if (!imageComplete(format, ctx.bytes))
      out.push({
        rule: this.id,
        message: `the ${format} image is cut off (it does not reach the format's end)`,
        expected: `a whole ${format}`,
        actual: `${ctx.bytes.length} bytes`,
      });
    return out;
  },
};

export const screenshotSize: ExchangeRule = {
  kind: "exchange",
  id: "screenshot-pixel-size",
  title: "A screenshot measures viewport × device_scale_factor pixels (the documented defaults when omitted)",
  side: "response",
  severity: "major",
  basis: "POST /screenshot",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const sent = obj(ctx.sent);
    if (!okAnswer(ctx, "screenshot") || !sent || !ctx.bytes) return [];
    // a selector crops to the element; a full page is as tall as the document: only the width is known then
    if (typeof sent.selector === "string") return [];
    const header = readImageHeader(ctx.bytes);
    if (!header) return []; // screenshot-image names it
    const v = schemaOf(ctx, "ScreenshotViewport");
    const given = obj(sent.viewport) ?? {};
    const dim = (name: string) => {
      const value = name in given ? given[name] : (v?.properties?.[name] as JsonSchema | undefined)?.default;
      return typeof value === "number" ? value : Number.NaN;
    };
    const scale = dim("device_scale_factor");
    const width = Math.round(dim("width") * scale);
    const height = Math.round(dim("height") * scale);
    if (Number.isNaN(width) || Number.isNaN(height)) return [];
    const fullPage = withDefault(ctx, "ScreenshotRequest", sent, "full_page") === true;
    const wrong = header.width !== width || (fullPage ? header.height < height : header.height !== height);
    if (!wrong) return [];
    return [
      {
        rule: this.id,
        message: fullPage ? "the full-page screenshot is not the viewport's width" : "another pixel size than asked",
        expected: fullPage ? `${width}×(≥ ${height})` : `${width}×${height}`,
        actual: `${header.width}×${header.height}`,
      },
    ];
  },
};

export const crawlScriptFree: ExchangeRule = {
  kind: "exchange",
  id: "crawl-text-clean",
  title: "Crawl content is the page's text: no <script> or <style> element left in it",
  side: "response",
  severity: "major",
  basis: "POST /crawl",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (!okAnswer(ctx, "crawl") || !ctx.json?.ok) return [];
    const answers = Array.isArray(ctx.json.value) ? ctx.json.value : [ctx.json.value];
    const out: Violation[] = [];
    for (const a of answers) {
      const content = obj(obj(a)?.results)?.content;
      if (typeof content !== "string") continue;
      const m = /<(script|style)\b[^>]*>/i.exec(content);
      if (m)
        out.push({
          rule: this.id,
          message: `crawl content holds a <${m[1].toLowerCase()}> element`,
          expected: "the page's readable text",
          actual: content.slice(Math.max(0, m.index - 40), m.index + 80),
        });
    }
    return out;
  },
};

/** A response_format's schema: a plain JSON Schema, or the OpenAI-style wrapper (D-extract-response-format). */
function formatSchema(format: unknown): JsonSchema | null {
  const f = obj(format);
  if (!f) return null;
  if (f.type === "json_schema") return (obj(obj(f.json_schema)?.schema) as JsonSchema | undefined) ?? null;
  return f as JsonSchema;
}

const MAX_FORMAT_CHARS = 64 * 1024;
/** compiled formats kept, the oldest dropped: a client sending a new format each call costs a compile each */
const MAX_FORMATS = 64;
// a validator of its own (the contract's keeps the document's schemas), replaced after MAX_FORMATS compiles: ajv
// keeps every schema it compiled in its code scope, so one instance would grow with every new format
let formatAjv = createAjv();
let compiles = 0;
const formats = new Map<string, ValidateFunction | null>();

function formatValidator(schema: JsonSchema): ((value: unknown) => FieldError[] | null) | null {
  const key = JSON.stringify(schema);
  let validate = formats.get(key);
  if (validate === undefined) {
    if (++compiles % MAX_FORMATS === 0) formatAjv = createAjv();
    try {
      validate = formatAjv.compile(schema);
    } catch {
      validate = null;
    } finally {
      formatAjv.removeSchema(schema);
    }
    formats.set(key, validate);
    if (formats.size > MAX_FORMATS) formats.delete(formats.keys().next().value as string);
  }
  const v = validate;
  return v ? (value) => (v(value) ? null : toFieldErrors(v.errors)) : null;
}

export const extractFormat: ExchangeRule = {
  kind: "exchange",
  id: "extract-results-match-format",
  title: "Extract results validate against the response_format supplied (a plain JSON Schema or the OpenAI wrapper)",
  side: "response",
  severity: "critical",
  basis: "Extract response; POST /extract; D-extract-response-format",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const sent = obj(ctx.sent);
    if (!okAnswer(ctx, "extract") || !sent || !ctx.json?.ok) return [];
    const schema = formatSchema(sent.response_format);
    // a format too large to be worth compiling on every answer is not judged (the request's own bound is elsewhere)
    if (!schema || JSON.stringify(schema).length > MAX_FORMAT_CHARS) return [];
    const validate = formatValidator(schema);
    if (!validate) return []; // a format that is no schema was refused by validation, or is not judged
    const results = obj(ctx.json.value)?.results;
    return (validate(results) ?? []).map((e) => ({
      rule: this.id,
      message: `results${e.field} ${e.message.replace(/^\S+ /, "")}`,
      expected: `results valid against response_format (${e.code})`,
      actual: JSON.stringify(results ?? null).slice(0, 300),
    }));
  },
};

/** "The URLs declared for the requested host": name and port alike, http or https, `www.` not a host of its own. */
export function sameHost(requested: string, url: string): boolean {
  const site = (u: string) => new URL(u).host.toLowerCase().replace(/^www\./, "");
  try {
    return site(url) === site(requested);
  } catch {
    return false;
  }
}

export const sitemapHost: ExchangeRule = {
  kind: "exchange",
  id: "sitemap-same-host",
  title: "type sitemap returns URLs of the requested host only (type all may return any)",
  side: "response",
  severity: "major",
  basis: "POST /sitemap (behaviour 1-3)",
  passive: true,
  needs: ["request-body", "response-body"],
  check(ctx) {
    const sent = obj(ctx.sent);
    if (!okAnswer(ctx, "sitemap") || !sent || typeof sent.url !== "string" || !ctx.json?.ok) return [];
    if (withDefault(ctx, "SitemapRequest", sent, "type") === "all") return [];
    const links = obj(ctx.json.value)?.links;
    if (!Array.isArray(links)) return [];
    const others = links.filter((l) => typeof l === "string" && !sameHost(sent.url as string, l));
    return others.length
      ? [
          {
            rule: this.id,
            message: `${others.length} of ${links.length} links are of another host`,
            expected: new URL(sent.url).host,
            actual: String(others[0]),
          },
        ]
      : [];
  },
};

export const deepcrawlZip: ExchangeRule = {
  kind: "exchange",
  id: "deepcrawl-zip-valid",
  title: "A deepcrawl's zip is a zip holding manifest.json (DeepcrawlManifest) and every page document it lists",
  side: "response",
  severity: "critical",
  basis: "Deepcrawl task; D-deepcrawl-zip",
  passive: true,
  needs: ["response-body"],
  check(ctx) {
    if (ctx.route !== "deepcrawl-zip" || ctx.status !== 200) return [];
    const out: Violation[] = [];
    if (ctx.contentType !== "application/zip")
      out.push({
        rule: this.id,
        message: `content type "${ctx.contentType}" is not application/zip`,
        expected: "application/zip",
        actual: ctx.contentType,
        code: "contentType",
      });
    if (!ctx.bytes) return out;
    const read = readPackage(ctx.contract, Buffer.from(ctx.bytes));
    if (!read.ok) for (const p of read.problems) out.push({ rule: this.id, message: p, code: "zip" });
    return out;
  },
};
