// The packaged deepcrawl result (D-deepcrawl-zip): `manifest.json` (schema DeepcrawlManifest) at the root and one
// Markdown document with YAML front matter per fetched page under `pages/`.
import { createHash } from "node:crypto";
import type { Schemas } from "@plumbline-kit/contract";
import { strFromU8, strToU8, unzipSync, type Zippable, zipSync } from "fflate";
import type { CrawledPage } from "./engines.ts";
import { withFrontMatter } from "./markdown-front-matter.ts";

export interface DeepcrawlPackageInput {
  taskId: string;
  url: string;
  type: "sitemap" | "all";
  createdAt: string;
  completedAt: string;
  /** the limit that stopped the crawl early, if one did */
  limitReached?: ManifestHead["limitReached"];
  pages: CrawledPage[];
}

export const MANIFEST_PATH = "manifest.json";
const SLUG_MAX = 80;
// zip (DOS) timestamps cover 1980..2099 in fflate; entries are stamped with completedAt so the same input gives the
// same bytes, and a date outside that span falls back to the first day that is safe in every time zone
const ZIP_EPOCH = Date.UTC(1980, 0, 2);
const ZIP_END = Date.UTC(2099, 11, 30);

/**
 * A filesystem-safe name for a page: the URL path lowercased to `[a-z0-9-]`, then a short hash of the whole URL,
 * so `/a/b`, `/a-b` and `/a/b?x=1` never share a name and a name never depends on the other pages.
 */
export function pageSlug(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL: slug the text itself
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // a stray `%`: keep it encoded
  }
  const base =
    path
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/\.(html?|php|aspx?)$/, "")
      .replace(/[^a-z0-9]+/g, "-")
      .slice(0, SLUG_MAX)
      .replace(/^-+|-+$/g, "") || "index";
  const hash = createHash("sha256").update(url).digest("hex").slice(0, 8);
  return `${base}-${hash}`;
}

function zipTime(iso: string): Date {
  const t = Date.parse(iso);
  return new Date(Number.isFinite(t) && t > ZIP_EPOCH && t < ZIP_END ? t : ZIP_EPOCH);
}

export type ManifestPage = Schemas["DeepcrawlManifest"]["pages"][number];
/** Everything of the manifest but its pages (they are streamed by the reference). */
export type ManifestHead = Omit<Schemas["DeepcrawlManifest"], "pages">;

/** The Markdown document of one page with its manifest entry; no document for a page that failed. */
export function pageDocument(
  page: CrawledPage,
  path = `pages/${pageSlug(page.url)}.md`,
): {
  entry: ManifestPage;
  document: Buffer | null;
} {
  if (page.markdown === null)
    return { entry: { url: page.url, path: null, title: page.title, status: page.status, bytes: 0 }, document: null };
  const document = Buffer.from(
    withFrontMatter({ url: page.url, title: page.title, fetched_at: page.fetchedAt }, page.markdown),
  );
  return {
    entry: { url: page.url, path, title: page.title, status: page.status, bytes: document.byteLength },
    document,
  };
}

/**
 * The text of manifest.json in pieces, exactly `JSON.stringify(manifest, null, 2)` and a newline once joined, so the
 * reference can write it while reading its page list from the database, and the mock builds the same bytes.
 */
export async function* manifestChunks(
  head: ManifestHead,
  pages: Iterable<ManifestPage> | AsyncIterable<ManifestPage>,
): AsyncGenerator<string> {
  const empty = JSON.stringify({ ...head, pages: [] }, null, 2);
  const at = empty.lastIndexOf("[]");
  yield empty.slice(0, at + 1);
  let first = true;
  for await (const page of pages) {
    yield `${first ? "" : ","}\n    ${JSON.stringify(page, null, 2).replace(/\n/g, "\n    ")}`;
    first = false;
  }
  yield `${first ? "" : "\n  "}${empty.slice(at + 1)}\n`;
}

/** Stamp of every entry: completedAt, so the same input gives the same bytes. */
export function entryTime(completedAt: string): Date {
  return zipTime(completedAt);
}

/** The whole package in memory (the mock's packages are small; the reference streams, deepcrawl-zip-writer.ts). */
export async function packageDeepcrawl(input: DeepcrawlPackageInput): Promise<Buffer> {
  const files: Zippable = {};
  const used = new Set<string>();
  const pages: ManifestPage[] = [];
  for (const page of input.pages) {
    const slug = pageSlug(page.url);
    let path = `pages/${slug}.md`;
    // only the same URL listed twice can land here; the hash already separates different URLs
    for (let n = 2; used.has(path); n++) path = `pages/${slug}-${n}.md`;
    const doc = pageDocument(page, path);
    if (doc.document) {
      used.add(path);
      files[path] = new Uint8Array(doc.document);
    }
    pages.push(doc.entry);
  }
  const head: ManifestHead = {
    taskId: input.taskId,
    url: input.url,
    type: input.type,
    createdAt: input.createdAt,
    completedAt: input.completedAt,
    limitReached: input.limitReached ?? null,
  };
  let manifest = "";
  for await (const chunk of manifestChunks(head, pages)) manifest += chunk;
  const entries: Zippable = { [MANIFEST_PATH]: strToU8(manifest), ...files };
  return Buffer.from(zipSync(entries, { level: 6, mtime: zipTime(input.completedAt) }));
}

/** Unzips a package: the parsed manifest and every other file as text. Throws when the zip or manifest is unreadable. */
export function readDeepcrawlPackage(zip: Buffer): { manifest: unknown; documents: Map<string, string> } {
  const files = unzipSync(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength));
  const raw = files[MANIFEST_PATH];
  if (!raw) throw new Error(`the deepcrawl zip has no ${MANIFEST_PATH}`);
  const documents = new Map<string, string>();
  for (const [name, data] of Object.entries(files)) {
    if (name !== MANIFEST_PATH && !name.endsWith("/")) documents.set(name, strFromU8(data));
  }
  return { manifest: JSON.parse(strFromU8(raw)) as unknown, documents };
}
