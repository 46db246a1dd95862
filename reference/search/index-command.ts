// `plumbline reference index add URL... | count`: fills the reference's page index from sites' sitemaps, on the
// same database the server uses (--data-dir or --database-url).
import { parseArgs } from "node:util";

export const INDEX_HELP = `       plumbline reference index add URL... [--limit N] [--allow-private-network] [--user-agent UA]
                                   [--data-dir DIR | --database-url URL]
       plumbline reference index count [--data-dir DIR | --database-url URL]`;

export async function indexCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "data-dir": { type: "string", default: "data" },
      "database-url": { type: "string" },
      limit: { type: "string", default: "500" },
      "allow-private-network": { type: "boolean", default: false },
      "user-agent": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(`Usage: ${INDEX_HELP.trimStart()}`);
    return 0;
  }
  const [action, ...urls] = positionals;
  if (action !== "add" && action !== "count") throw new Error(`index takes add or count, not "${action ?? ""}"`);
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new Error("--limit takes a whole number >= 1");
  if (action === "add") {
    if (urls.length === 0) throw new Error("index add takes at least one site URL");
    for (const u of urls) if (!/^https?:\/\/[^\s/]+/.test(u)) throw new Error(`not an http(s) URL: ${u}`);
  }
  const { openDatabase } = await import("../store/open-database.ts");
  const { createPageIndex } = await import("./create-page-index.ts");
  const opened = await openDatabase({ dataDir: values["data-dir"], databaseUrl: values["database-url"] });
  const index = await createPageIndex(opened);
  try {
    if (action === "count") {
      console.log(`${await index.count()} pages indexed (${opened.dialect} ${opened.location})`);
      return 0;
    }
    const { createCrawlEngine, createHttpClient, createSitemapEngine } = await import("../engines/index.ts");
    const { indexingCrawl } = await import("./index-feeds.ts");
    const { indexSites } = await import("./index-sites.ts");
    const { realClock } = await import("../platform/stores.ts");
    const http = createHttpClient({
      allowPrivateNetwork: values["allow-private-network"],
      userAgent: values["user-agent"],
    });
    try {
      const r = await indexSites({
        urls,
        limit,
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
  } finally {
    await index.close?.();
    await opened.close();
  }
}
