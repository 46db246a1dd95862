// Writes a deepcrawl package as a stream (issue 11; D-deepcrawl-zip): yazl deflates one entry at a time into the
// package store, manifest.json first (its page list read from the database page by page), then the documents in the
// same order. The next entry is added only once the previous one is consumed, so memory holds one document and one
// page of rows, whatever the size of the crawl. The layout and the manifest text come from the platform's packager
// functions, the ones the mock's in-memory packages are built with.
import { once } from "node:events";
import { Readable } from "node:stream";
import {
  entryTime,
  MANIFEST_PATH,
  type ManifestHead,
  type ManifestPage,
  manifestChunks,
} from "@plumbline-kit/platform/deepcrawl-package";
import { ZipFile } from "yazl";
import type { PackageUpload } from "./package-store.ts";

export interface PackagedPage {
  entry: ManifestPage;
  document: string | null;
}

/** Writes the zip into `upload` and commits it; the pages are read twice (manifest, then documents). */
export async function writeDeepcrawlZip(
  upload: PackageUpload,
  head: ManifestHead,
  pages: () => AsyncIterable<PackagedPage>,
): Promise<number> {
  const zip = new ZipFile();
  const failed = new Promise<never>((_, reject) => {
    zip.outputStream.on("error", reject);
    upload.stream.on("error", reject);
  });
  failed.catch(() => {});
  zip.outputStream.pipe(upload.stream);
  const mtime = entryTime(head.completedAt);
  const add = async (input: Readable, name: string) => {
    zip.addReadStream(input, name, { mtime, compress: true });
    await Promise.race([once(input, "end"), failed]);
  };
  async function* entries() {
    for await (const p of pages()) yield p.entry;
  }
  async function* manifestBytes() {
    for await (const text of manifestChunks(head, entries())) yield Buffer.from(text);
  }
  await add(Readable.from(manifestBytes()), MANIFEST_PATH);
  for await (const p of pages()) {
    if (p.document !== null && p.entry.path !== null) await add(Readable.from([Buffer.from(p.document)]), p.entry.path);
  }
  zip.end();
  return Promise.race([upload.commit(), failed]);
}
