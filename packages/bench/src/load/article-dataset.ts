// An article-extraction dataset in the layout of Scrapinghub/Zyte's benchmark (../shared/bench/article-extraction):
// `ground-truth.json` ({ "<id>": { "articleBody": "...", "url": "..." } }) and `html/<id>.html.gz`, the page as
// served. Read whole and checked up front, so a broken folder is a clear "could not run", not 90 failed crawls.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

export interface ArticlePage {
  id: string;
  /** where the page was published (scoring does not use it; reports name pages by it) */
  url: string;
  articleBody: string;
  /** the gzip bytes as stored */
  gzip: Buffer;
  /** the page's bytes */
  html: Buffer;
  /** the charset the page declares in a `<meta>`, else utf-8 */
  charset: string;
}

export class DatasetError extends Error {}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i;

function declaredCharset(html: Buffer): string {
  const label = META_CHARSET.exec(html.subarray(0, 64 * 1024).toString("latin1"))?.[1]?.toLowerCase();
  if (!label) return "utf-8";
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return "utf-8";
  }
}

export function readArticleDataset(dir: string): ArticlePage[] {
  const truthFile = join(dir, "ground-truth.json");
  if (!existsSync(truthFile)) throw new DatasetError(`${dir} has no ground-truth.json (see --help for the layout)`);
  let truth: unknown;
  try {
    truth = JSON.parse(readFileSync(truthFile, "utf8"));
  } catch (err) {
    throw new DatasetError(`${truthFile} is not JSON: ${(err as Error).message}`);
  }
  if (!truth || typeof truth !== "object" || Array.isArray(truth))
    throw new DatasetError(`${truthFile} must be an object of { "<id>": { "articleBody", "url" } }`);
  const pages: ArticlePage[] = [];
  for (const [id, entry] of Object.entries(truth as Record<string, unknown>)) {
    const e = entry as { articleBody?: unknown; url?: unknown } | null;
    if (typeof e?.articleBody !== "string" || typeof e.url !== "string")
      throw new DatasetError(`${truthFile}: "${id}" needs string articleBody and url`);
    if (!/^[\w.-]+$/.test(id)) throw new DatasetError(`${truthFile}: page id "${id}" is not a plain file name`);
    const file = join(dir, "html", `${id}.html.gz`);
    if (!existsSync(file)) throw new DatasetError(`${file} is missing (every page of ground-truth.json needs one)`);
    const gzip = readFileSync(file);
    let html: Buffer;
    try {
      html = gunzipSync(gzip);
    } catch (err) {
      throw new DatasetError(`${file} is not gzip: ${(err as Error).message}`);
    }
    pages.push({ id, url: e.url, articleBody: e.articleBody, gzip, html, charset: declaredCharset(html) });
  }
  if (pages.length === 0) throw new DatasetError(`${truthFile} lists no page`);
  return pages.sort((a, b) => a.id.localeCompare(b.id));
}
