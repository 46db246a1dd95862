// Pages that cost a parser far more than their size (issue 38), shared by the reference's hostile-parse test and
// `plumbline bench extract-stall`. Each is within the http client's 5 MiB body cap, so it reaches the parser.

const html = (body: string, title = "") =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

export const HOSTILE_PAGES = {
  /** 100,000 nested `<div>`s (1.1 MB): past the element cap (a DOM of it took the event loop 16.8 s) */
  nestedDivs: html(`${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}`),
  /** 200,000 `<div>`s never closed (1 MB): past the element cap */
  unclosedDivs: html(`${"<div>".repeat(200_000)}open`),
  /** one attribute of 4.5 MB: three elements, within every cap */
  hugeAttribute: html(`<h1>Huge attribute</h1><div title="${"a".repeat(4_500_000)}">x</div>`),
  /** 20,000 sibling lists after one heading (40,000 elements, within the caps): each list is labelled by a heading */
  siblingLists: html(`<h1>Many lists</h1>${"<ul><li>item</li></ul>".repeat(20_000)}`),
  /** a sitemap of 200,000 nested `<url>`s (2.2 MB): no sitemap a parser can read */
  deepSitemap: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${"<url>".repeat(200_000)}<loc>https://example.com/</loc>${"</url>".repeat(200_000)}</urlset>`,
  /**
   * an arXiv answer of 100,000 entries (4.6 MB, under the 5 MiB an upstream's answer is read to): an upstream's XML
   * whose parse takes seconds
   */
  wideAtomFeed: `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">${"<entry><id>http://arxiv.org/abs/1</id></entry>".repeat(100_000)}</feed>`,
};
