// A stand-in for a target that really fetches pages, for the suite's own tests of the checks that skip on synthetic
// targets: a fault (fault-proxy.ts) in front of the mock that answers every request about a fixture-site page from
// the page itself. Crawl returns the page's text (the canary then comes back), screenshots are rendered by headless
// Chromium, extract reads the product page's structured data and table, and a deepcrawl zip is rebuilt from the
// pages the fixture sitemap declares (robots.txt → index → gzipped sitemap, followed here for real). The mock keeps
// accounts, charges and task states. `Breakage` breaks one behaviour, so each real-page check can be shown to bite.
import { gunzipSync } from "node:zlib";
import { strFromU8, strToU8, unzipSync, type Zippable, zipSync } from "fflate";
import type { Browser } from "playwright-core";
import sharp, { type FormatEnum } from "sharp";
import { stringify } from "yaml";
import type { Fault, ProxiedRequest, ProxiedResponse } from "./fault-proxy.ts";

export interface Breakage {
  /** screenshots ignore `selector` (the whole viewport instead of the element) */
  ignoreSelector?: boolean;
  /** screenshots ignore `full_page` */
  ignoreFullPage?: boolean;
  /** screenshots ignore `color_scheme` */
  ignoreColorScheme?: boolean;
  /** screenshots ignore `omit_background` */
  ignoreOmitBackground?: boolean;
  /** extract reports a price other than the page's */
  wrongPrice?: boolean;
  /** the deepcrawl package leaves out the last page the sitemap declares */
  dropPage?: boolean;
}

type Json = Record<string, unknown>;

const isFixture = (url: unknown, mock: URL) => {
  try {
    const u = new URL(String(url));
    return u.hostname === "127.0.0.1" && u.port !== mock.port;
  } catch {
    return false;
  }
};

const text = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const title = (html: string) => /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? null;
const get = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const json = (res: ProxiedResponse, value: unknown): ProxiedResponse => ({
  ...res,
  body: Buffer.from(JSON.stringify(value)),
});

async function screenshot(browser: Browser, body: Json, broken: Breakage): Promise<{ type: string; bytes: Buffer }> {
  const vp = (body.viewport ?? {}) as { width?: number; height?: number; device_scale_factor?: number };
  const context = await browser.newContext({
    viewport: { width: vp.width ?? 1440, height: vp.height ?? 900 },
    deviceScaleFactor: vp.device_scale_factor ?? 1,
    colorScheme: body.color_scheme === "dark" && !broken.ignoreColorScheme ? "dark" : "light",
  });
  try {
    const page = await context.newPage();
    await page.goto(String(body.url));
    const omitBackground = body.omit_background === true && !broken.ignoreOmitBackground;
    const shot =
      typeof body.selector === "string" && !broken.ignoreSelector
        ? await page.locator(body.selector).screenshot({ type: "png", omitBackground })
        : await page.screenshot({
            type: "png",
            omitBackground,
            fullPage: body.full_page === true && !broken.ignoreFullPage,
          });
    const format = typeof body.format === "string" ? body.format : "png";
    return {
      type: `image/${format}`,
      bytes: await sharp(shot)
        .toFormat(format as keyof FormatEnum)
        .toBuffer(),
    };
  } finally {
    await context.close();
  }
}

async function extract(body: Json, broken: Breakage): Promise<unknown> {
  const html = (await get(String(body.url))).toString("utf8");
  let schema = body.response_format as Json;
  if (schema?.type === "json_schema") schema = (schema.json_schema as Json).schema as Json;
  if (schema?.type === "array") {
    const rows = [...html.matchAll(/<tr><td>([^<]+)<\/td><td>\$([\d.]+)<\/td><\/tr>/g)];
    return rows.map((r) => ({ plan: r[1], monthly_usd: Number(r[2]) }));
  }
  const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "{}");
  const price = Number(ld.offers?.price) + (broken.wrongPrice ? 1 : 0);
  return { name: ld.name, sku: ld.sku, price_usd: price };
}

/** The same-host URLs the site's sitemap declares: robots.txt, then sitemap indexes and gzipped sitemaps. */
async function sitemapUrls(origin: string): Promise<string[]> {
  const robots = (await get(`${origin}/robots.txt`)).toString("utf8");
  const queue = [...robots.matchAll(/^Sitemap:\s*(\S+)/gim)].map((m) => m[1]);
  const pages: string[] = [];
  while (queue.length) {
    const url = queue.shift() as string;
    const raw = await get(url);
    const xml = (url.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    if (xml.includes("<sitemapindex")) queue.push(...locs);
    else pages.push(...locs.filter((l) => new URL(l).origin === origin));
  }
  return pages;
}

async function rebuildZip(zip: Buffer, broken: Breakage): Promise<Buffer> {
  const manifest = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip))["manifest.json"])) as Json;
  let urls = await sitemapUrls(new URL(String(manifest.url)).origin);
  if (broken.dropPage) urls = urls.slice(0, -1);
  const files: Zippable = {};
  const pages = [];
  for (const [i, url] of urls.entries()) {
    const html = (await get(url)).toString("utf8");
    const path = `pages/page-${i + 1}.md`;
    const front = stringify({ url, title: title(html), fetched_at: new Date().toISOString() });
    const doc = strToU8(`---\n${front}---\n\n${text(html)}\n`);
    files[path] = doc;
    pages.push({ url, path, title: title(html), status: 200, bytes: doc.byteLength });
  }
  files["manifest.json"] = strToU8(JSON.stringify({ ...manifest, pages }));
  return Buffer.from(zipSync(files));
}

/** The fault that makes the mock behind the proxy answer fixture-site requests as a real target would. */
export function realPages(mockUrl: string, browser: Browser, broken: Breakage = {}): Fault {
  const mock = new URL(mockUrl);
  return {
    async rewrite(req: ProxiedRequest, res: ProxiedResponse) {
      if (req.path.split("?")[0].endsWith(".zip") && res.status === 200) {
        const manifest = JSON.parse(strFromU8(unzipSync(new Uint8Array(res.body))["manifest.json"])) as Json;
        return isFixture(manifest.url, mock) ? { ...res, body: await rebuildZip(res.body, broken) } : res;
      }
      if (req.method !== "POST" || res.status !== 200 || req.body.length === 0) return res;
      const body = JSON.parse(req.body.toString("utf8")) as Json;
      if (Array.isArray(body) || !isFixture(body.url, mock)) return res;
      const url = String(body.url);
      if (req.path === "/crawl") {
        const html = (await get(url)).toString("utf8");
        return json(res, {
          crawlParameters: { url },
          results: { title: title(html) ?? "", link: url, content: text(html) },
        });
      }
      if (req.path === "/screenshot") {
        const { type, bytes } = await screenshot(browser, body, broken);
        return { ...res, headers: { ...res.headers, "content-type": type }, body: bytes };
      }
      if (req.path === "/extract")
        return json(res, { success: true, extractParameters: { url }, results: await extract(body, broken) });
      return res;
    },
  };
}
