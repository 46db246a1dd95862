// Where deepcrawl packages live (issue 11 "Scale-out"): behind one interface, so every instance reads the package
// whichever instance wrote it. The filesystem store is the default (`--package-dir`, a directory the instances
// share, e.g. a network volume); a package is written to a temporary name and renamed into place, so a reader never
// sees half a zip and a crash leaves no package, only a temporary file the next write of that key replaces. The other
// store is an S3-compatible bucket (s3-package-store.ts); both take the keys checkPackageKey accepts.

import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";

export interface PackageUpload {
  stream: Writable;
  /** the written bytes are complete: make them readable under the key; resolves with the byte size */
  commit(): Promise<number>;
  /** drop what was written */
  abort(): Promise<void>;
}

export interface PackageStore {
  create(key: string): Promise<PackageUpload>;
  open(key: string): Promise<{ body: Readable; bytes: number } | null>;
  remove(key: string): Promise<void>;
  /** drops what interrupted writes under the prefix left behind (a killed instance's temporary file or pending
   * multipart upload); packages already committed stay */
  sweep(prefix: string): Promise<void>;
  /** where the packages are, for logs */
  location: string;
  /** lets go of connections (the S3 store's client) */
  close?(): void;
}

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** The keys every store accepts: slash-separated plain segments, never `..` (the same rule on disk and in a bucket). */
export function checkPackageKey(key: string): string {
  if (!KEY.test(key) || key.includes("..")) throw new Error(`bad package key ${key}`);
  return key;
}

export function createFilePackageStore(dir: string): PackageStore {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    const path = resolve(root, checkPackageKey(key));
    if (!path.startsWith(root + sep)) throw new Error(`bad package key ${key}`);
    return path;
  };
  return {
    location: root,
    async create(key) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${randomBytes(6).toString("hex")}.part`;
      const stream = createWriteStream(temp);
      const done = finished(stream);
      done.catch(() => {}); // observed by commit/abort
      return {
        stream,
        async commit() {
          await done;
          await rename(temp, path);
          return (await stat(path)).size;
        },
        async abort() {
          stream.destroy();
          await done.catch(() => {});
          await rm(temp, { force: true });
        },
      };
    },
    async open(key) {
      const path = pathOf(key);
      try {
        const { size } = await stat(path);
        return { body: createReadStream(path), bytes: size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async sweep(prefix) {
      const dir = pathOf(prefix);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) if (name.endsWith(".part")) await rm(join(dir, name), { force: true });
    },
  };
}

/** The default package directory: beside the SQLite database. */
export function defaultPackageDir(dataDir: string | undefined): string {
  return join(dataDir ?? "data", "packages");
}
