// Synthetic link discovery on one site, shared by /sitemap and the deepcrawl SiteCrawler: unique, absolute URLs
// on the requested origin (same scheme and host), plus links to other hosts where the caller asks for them.
import type { Rng } from "./rng.ts";
import { slug } from "./text.ts";
import { FILLER_TOPICS, PAGE_SECTIONS, WEB_HOSTS } from "./vocabulary.ts";

const TOP_PAGES = ["/", "/about", "/pricing", "/contact", "/careers", "/docs", "/blog", "/changelog", "/privacy"];
const SECTIONS = ["blog", "docs", "guides", "products", "news"];

/** `count` distinct URLs on `origin`; the first ones are the site's top pages. */
export function sameHostLinks(rng: Rng, origin: string, count: number): string[] {
  const paths = new Set<string>(rng.sample(TOP_PAGES.slice(1), rng.int(1, 4)));
  paths.add("/");
  let guard = 0;
  while (paths.size < count && guard++ < count * 20) {
    const words = rng.sample([...FILLER_TOPICS, ...PAGE_SECTIONS.map((s) => s.toLowerCase())], rng.int(1, 3));
    paths.add(`/${rng.pick(SECTIONS)}/${slug(words)}`);
  }
  return [...paths].slice(0, count).map((p) => (p === "/" ? `${origin}/` : `${origin}${p}`));
}

/** `count` links to other sites, as a page's footer and citations would have. */
export function otherHostLinks(rng: Rng, ownHost: string, count: number): string[] {
  const hosts = WEB_HOSTS.filter((h) => h !== ownHost);
  const out = new Set<string>();
  let guard = 0;
  while (out.size < count && guard++ < count * 20) {
    out.add(`https://${rng.pick(hosts)}/${slug(rng.sample(FILLER_TOPICS, rng.int(1, 2)))}`);
  }
  return [...out];
}
