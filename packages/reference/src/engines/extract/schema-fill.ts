// The deterministic extractor (issue 14, "POST /extract", the embedded default): fills a response_format schema
// from what the page states. Each property is matched by its name (and description) against the page's structured
// fields (JSON-LD, microdata, meta), then its tables (arrays of objects: one row an item, headers matched to the
// item's properties), lists (arrays of strings), headings and text. Values are coerced to the schema's type; what
// the page does not state is left out, and the caller validates the result, never returning what does not fit.
import type { FactValue, Field, PageFacts, Table } from "./page-facts.ts";

type Schema = Record<string, unknown>;

const STOP = new Set([
  "the",
  "a",
  "an",
  "of",
  "in",
  "on",
  "for",
  "to",
  "and",
  "or",
  "its",
  "it",
  "with",
  "every",
  "each",
  "all",
  "this",
  "that",
  "page",
  "from",
  "as",
  "by",
  "is",
  "are",
]);

/** `priceUsd`, `price_usd`, "Price (USD)" → ["price", "usd"]; plurals folded. */
export function tokens(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t && !STOP.has(t))
    .map((t) => (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t));
}

const overlap = (a: string[], b: string[]) => a.filter((t) => b.includes(t)).length;

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === "string") return [schema.type];
  if (schema.properties) return ["object"];
  if (schema.items) return ["array"];
  if (Array.isArray(schema.enum)) return [...new Set((schema.enum as unknown[]).map((v) => typeof v))];
  return ["string"];
}

export function toNumber(v: FactValue | undefined, integer = false): number | undefined {
  if (typeof v === "number") return integer ? Math.round(v) : v;
  if (typeof v !== "string") return undefined;
  const m = /-?\d[\d,]*(?:\.\d+)?|-?\.\d+/.exec(v.replace(/\s(?=\d{3}\b)/g, ""));
  if (!m) return undefined;
  const n = Number(m[0].replace(/,/g, ""));
  if (!Number.isFinite(n)) return undefined;
  return integer ? Math.round(n) : n;
}

function toBoolean(v: FactValue | undefined): boolean | undefined {
  if (typeof v === "boolean") return v;
  const s = String(v ?? "").toLowerCase();
  if (/^(true|yes|1|in ?stock|available)$|\/instock$/.test(s)) return true;
  if (/^(false|no|0|out ?of ?stock|unavailable)$|\/outofstock$/.test(s)) return false;
  return undefined;
}

function coerce(schema: Schema, v: FactValue | undefined): unknown {
  if (v === undefined) return undefined;
  if (Array.isArray(schema.enum)) {
    const s = String(v).toLowerCase();
    return (schema.enum as unknown[]).find((e) => String(e).toLowerCase() === s);
  }
  for (const t of typesOf(schema)) {
    if (t === "number" || t === "integer") {
      const n = toNumber(v, t === "integer");
      if (n !== undefined) return n;
    } else if (t === "boolean") {
      const b = toBoolean(v);
      if (b !== undefined) return b;
    } else if (t === "string") {
      return String(v);
    }
  }
  return undefined;
}

/** How well a stated field answers a property: words of the field's own name weigh most. */
function fieldScore(want: string[], field: Field): number {
  const segments = field.path.split(".");
  const last = tokens(segments.at(-1) ?? "");
  const all = tokens(field.path);
  const hit = overlap(want, last);
  if (hit === 0) return 0;
  const exact = last.length === want.length && hit === want.length ? 2 : 0;
  const source = field.source === "meta" ? -0.5 : 0;
  return 3 * hit + overlap(want, all) + exact + source - 0.2 * (last.length - hit);
}

/** Fallbacks by meaning for properties no field names: a title, a description, the URL, the text. */
function byMeaning(want: string[], facts: PageFacts): FactValue | undefined {
  const has = (...ws: string[]) => ws.some((w) => want.includes(w));
  if (has("title", "name", "headline", "heading")) return facts.title;
  if (has("description", "summary", "excerpt", "abstract")) return facts.description ?? undefined;
  if (has("url", "link", "href", "permalink")) return facts.url;
  if (has("language", "lang", "locale")) return facts.language ?? undefined;
  if (has("text", "content", "body", "article")) return facts.paragraphs.join("\n\n") || undefined;
  return undefined;
}

/** A number stated in running text next to the property's words ("Price: $249.50"). */
function numberInText(want: string[], facts: PageFacts): number | undefined {
  for (const p of facts.paragraphs) {
    if (overlap(want, tokens(p)) > 0) {
      const n = toNumber(p);
      if (n !== undefined) return n;
    }
  }
  return undefined;
}

function scalar(schema: Schema, want: string[], facts: PageFacts): unknown {
  const ranked = facts.fields
    .map((f) => ({ f, score: fieldScore(want, f) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
  for (const { f } of ranked) {
    const v = coerce(schema, f.value);
    if (v !== undefined) return v;
  }
  const meant = coerce(schema, byMeaning(want, facts));
  if (meant !== undefined) return meant;
  const types = typesOf(schema);
  if (types.includes("number") || types.includes("integer")) {
    return coerce(schema, numberInText(want, facts));
  }
  if (Array.isArray(schema.enum)) {
    const text = facts.paragraphs.join(" ").toLowerCase();
    return (schema.enum as unknown[]).find((e) => typeof e === "string" && text.includes(e.toLowerCase()));
  }
  return undefined;
}

function tableItems(items: Schema, table: Table): Array<Record<string, unknown>> {
  const props = Object.entries((items.properties ?? {}) as Record<string, Schema>);
  const headerTokens = table.headers.map(tokens);
  const columns = props.map(([name, s]) => {
    const want = tokens(`${name} ${String(s.description ?? "")}`);
    let best = -1;
    let bestScore = 0;
    headerTokens.forEach((h, i) => {
      const score = overlap(tokens(name), h) * 2 + overlap(want, h);
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    return { name, schema: s, column: best };
  });
  return table.rows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const c of columns) {
      if (c.column < 0) continue;
      const v = coerce(c.schema, row[c.column]);
      if (v !== undefined) item[c.name] = v;
    }
    return item;
  });
}

function tableFit(items: Schema, table: Table, hint: string[]): number {
  const props = Object.keys((items.properties ?? {}) as Record<string, Schema>);
  const headers = table.headers.flatMap(tokens);
  const matched = props.filter((p) => overlap(tokens(p), headers) > 0).length;
  return matched * 3 + overlap(hint, tokens(table.label)) + (table.rows.length > 0 ? 1 : 0);
}

function arrayValue(schema: Schema, want: string[], facts: PageFacts): unknown[] | undefined {
  const items = (schema.items ?? {}) as Schema;
  const max = typeof schema.maxItems === "number" ? schema.maxItems : 1000;
  const itemTypes = typesOf(items);
  if (itemTypes.includes("object")) {
    const best = facts.tables
      .map((t) => ({ t, fit: tableFit(items, t, want) }))
      .filter((x) => x.fit >= 3)
      .sort((a, b) => b.fit - a.fit)[0];
    if (best) return tableItems(items, best.t).slice(0, max);
    return undefined;
  }
  const lists = [...facts.lists].sort((a, b) => overlap(want, tokens(b.label)) - overlap(want, tokens(a.label)));
  const source = want.some((w) => w === "heading" || w === "section" || w === "header")
    ? facts.headings
    : (lists[0]?.items ?? facts.headings);
  const values = source.map((v) => coerce(items, v)).filter((v) => v !== undefined);
  return values.length ? values.slice(0, max) : undefined;
}

/** The value `schema` asks for, from the page; undefined where the page does not state it. */
export function fillSchema(schema: Schema, facts: PageFacts, hint = "", depth = 0): unknown {
  if (depth > 8) return undefined;
  if ("const" in schema) return schema.const;
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(schema[key])) {
      for (const alt of schema[key] as Schema[]) {
        const v = fillSchema({ ...schema, [key]: undefined, ...alt }, facts, hint, depth + 1);
        if (v !== undefined) return v;
      }
    }
  }
  const want = tokens(`${hint} ${String(schema.description ?? "")}`);
  const types = typesOf(schema);
  if (types.includes("object")) {
    const out: Record<string, unknown> = {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      const v = fillSchema(s, facts, name, depth + 1);
      if (v !== undefined) out[name] = v;
      // a required list the page has no entries for is stated truthfully as empty, where the schema allows it
      else if (required.has(name) && typesOf(s).includes("array") && !((s.minItems as number) > 0)) out[name] = [];
    }
    return out;
  }
  if (types.includes("array")) return arrayValue(schema, want, facts);
  return scalar(schema, want, facts);
}
