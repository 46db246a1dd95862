// GitHub trending (D-trending-platforms): github.com/trending is a page, not an API, so it is read as one: each
// repository is an `article.Box-row` whose `h2 a` links /owner/name and whose first `p` is its description (absent
// for repositories that have none: the field is left out, D-trending-description).
import type { Schemas } from "@plumbline-kit/contract";
import { trendingResult } from "@plumbline-kit/platform/trending-result";
import { parseDocument } from "../html-document.ts";

type TrendingResult = Schemas["TrendingResult"];

const squash = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

export function parseGithubTrending(html: string, baseUrl: string, limit: number): TrendingResult[] {
  const document = parseDocument(html);
  const out: TrendingResult[] = [];
  const seen = new Set<string>();
  for (const row of Array.from(document.querySelectorAll("article.Box-row"))) {
    const anchor = row.querySelector("h2 a[href], h1 a[href]");
    const href = anchor?.getAttribute("href");
    if (!href) continue;
    const url = new URL(href, baseUrl).href;
    if (seen.has(url)) continue;
    seen.add(url);
    // the anchor reads "owner /\n name"; the path is the canonical "owner/name"
    const title = new URL(url).pathname.replace(/^\/+|\/+$/g, "") || squash(anchor?.textContent);
    out.push(trendingResult(title, url, squash(row.querySelector("p")?.textContent)));
    if (out.length >= limit) break;
  }
  return out;
}
