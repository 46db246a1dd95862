// `plumbline reference index add URL... | count` (declared in reference/cli.ts): fills the reference's page index
// from sites' sitemaps, on the same database the server uses (--data-dir or --database-url).

import { realClock } from "@plumbline-kit/platform/stores";
import { createCrawlEngine, createHttpClient, createSitemapEngine } from "../engines/index.ts";
import { type OpenedDatabase, openDatabase } from "../store/open-database.ts";
import { createPageIndex } from "./create-page-index.ts";
import { indexingCrawl } from "./index-feeds.ts";
import { indexSites } from "./index-sites.ts";
import type { PageIndex } from "./page-index.ts";

interface Database {
  dataDir: string;
  databaseUrl?: string;
}

async function withIndex(
  db: Database,
  use: (index: PageIndex, opened: OpenedDatabase) => Promise<number>,
): Promise<number> {
  const opened = await openDatabase({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  try {
    const index = await createPageIndex(opened);
    try {
      return await use(index, opened);
    } finally {
      await index.close?.();
    }
  } finally {
    await opened.close();
  }
}

export function indexCountCommand(o: Database): Promise<number> {
  return withIndex(o, async (index, opened) => {
    console.log(`${await index.count()} pages indexed (${opened.dialect} ${opened.location})`);
    return 0;
  });
}

/** Exit 1 when a site cannot be read (the others are indexed still). */
export function indexSitesCommand(
  urls: string[],
  o: Database & { limit: number; allowPrivateNetwork?: boolean; userAgent?: string },
): Promise<number> {
  return withIndex(o, async (index) => {
    const http = createHttpClient({ allowPrivateNetwork: o.allowPrivateNetwork ?? false, userAgent: o.userAgent });
    try {
      const r = await indexSites({
        urls,
        limit: o.limit,
        sitemap: createSitemapEngine({ http }),
        // static text only: a command filling an index in bulk does not start a browser per page
        crawl: indexingCrawl(createCrawlEngine({ http, renderer: null, clock: realClock }), index),
        onProgress: (line) => console.log(line),
      });
      const indexed = r.sites.reduce((n, s) => n + s.indexed, 0);
      console.log(`${indexed} pages indexed, ${r.failed.length} failed; the index holds ${await index.count()}`);
      return r.sites.every((s) => !s.error) ? 0 : 1;
    } finally {
      await http.close();
    }
  });
}
