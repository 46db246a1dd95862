// One sitemap document → the URLs it declares (sitemaps.org protocol: `<urlset>` of `<url><loc>`, `<sitemapindex>`
// of `<sitemap><loc>`; the protocol also accepts a plain-text list of URLs and RSS 2.0 / Atom feeds). A real XML
// parser (fast-xml-parser, entity expansion bounded by its defaults, no external entities), not regular expressions.
import { XMLParser } from "fast-xml-parser";

export type SitemapDocument =
  | { kind: "urlset"; urls: string[] }
  | { kind: "index"; sitemaps: string[] }
  | { kind: "none" };

const LISTS = new Set(["url", "sitemap", "item", "entry", "link"]);

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => LISTS.has(name),
});

type Node = Record<string, unknown>;
const asNodes = (v: unknown): Node[] => (Array.isArray(v) ? v : v == null ? [] : [v]) as Node[];

/** A `<loc>` value: text, or `#text` when the element carries attributes; the first of a list. */
function text(v: unknown): string | null {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === "string") return v.trim() || null;
  const t = (v as Node | null)?.["#text"];
  return typeof t === "string" ? t.trim() || null : null;
}

const locs = (nodes: Node[], field = "loc") => nodes.map((n) => text(n[field])).filter((u): u is string => !!u);

function feedLinks(doc: Node): string[] | null {
  const rss = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (rss) return asNodes(rss.item).flatMap((item) => locs([item], "link"));
  const feed = doc.feed as Node | undefined;
  if (!feed) return null;
  return asNodes(feed.entry).flatMap((entry) =>
    asNodes(entry.link)
      .filter((l) => !l["@rel"] || l["@rel"] === "alternate")
      .map((l) => l["@href"])
      .filter((h): h is string => typeof h === "string"),
  );
}

/** A text sitemap: one absolute http(s) URL per line and nothing else. */
function textList(body: string): string[] | null {
  const lines = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 0 && lines.every((l) => /^https?:\/\/\S+$/i.test(l)) ? lines : null;
}

export function parseSitemap(body: string): SitemapDocument {
  const trimmed = body.trimStart();
  if (!trimmed.startsWith("<")) {
    const urls = textList(trimmed);
    return urls ? { kind: "urlset", urls } : { kind: "none" };
  }
  let doc: Node;
  try {
    doc = parser.parse(trimmed) as Node;
  } catch {
    return { kind: "none" };
  }
  // an empty element parses to "", so presence is tested, not truthiness
  if ("sitemapindex" in doc) return { kind: "index", sitemaps: locs(asNodes((doc.sitemapindex as Node)?.sitemap)) };
  if ("urlset" in doc) return { kind: "urlset", urls: locs(asNodes((doc.urlset as Node)?.url)) };
  const feed = feedLinks(doc);
  return feed ? { kind: "urlset", urls: feed } : { kind: "none" };
}
