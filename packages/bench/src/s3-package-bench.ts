// `plumbline bench s3-package` (issue 11): one package of N MiB streamed into the S3 package store and read back,
// against the S3 stand-in (test-support/s3-stand-in.ts, which is why this lives in bench/, outside the product
// folders) running in a child process, so its copy of the bytes is not counted here. Reports MiB/s both ways and
// this process's peak RSS against its RSS before, which shows the upload holds parts, not the package.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PackageStore } from "@plumbline-kit/reference/deepcrawl/package-store";
import { mb, watchRss } from "./rss-peak.ts";

export interface S3PackageBenchOptions {
  /** the package's size in MiB (default 256) */
  mib?: number;
}

export interface S3PackageBenchResult {
  mib: number;
  /** bytes the store says it committed, and bytes read back from it */
  bytes: number;
  readBytes: number;
  uploadSeconds: number;
  uploadMiBPerSecond: number;
  readSeconds: number;
  readMiBPerSecond: number;
  /** this process's RSS before, its peak during the upload and its peak overall (sampled every 20 ms), bytes */
  rssBefore: number;
  rssUploadPeak: number;
  rssPeak: number;
  /** the store committed as many bytes as were written, and as many were read back */
  intact: boolean;
}

const MIB = 1024 * 1024;

/** The stand-in in a Node of its own (tsx for its TypeScript); its URL once it listens. It exits with our stdin. */
async function startStandIn() {
  const standIn = new URL("../../../test-support/s3-stand-in.ts", import.meta.url).href;
  const code =
    `process.stdin.on("end", () => process.exit(0)).resume();` +
    `import(${JSON.stringify(standIn)}).then(async (m) => console.log((await m.startS3StandIn({ buckets: ["bench"] })).url))`;
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), "-e", code], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`the S3 stand-in exited with ${code} before it listened`);
  });
  const [line] = (await Promise.race([once(child.stdout, "data"), exited])) as [Buffer];
  exited.catch(() => {});
  return { url: line.toString().trim(), stop: () => child.kill() };
}

export async function benchS3Package(o: S3PackageBenchOptions = {}): Promise<S3PackageBenchResult> {
  const mib = o.mib ?? 256;
  const { createS3PackageStore } = await import("@plumbline-kit/reference/deepcrawl/s3-package-store");
  const standIn = await startStandIn();
  try {
    const store = createS3PackageStore({
      bucket: "bench",
      endpoint: standIn.url,
      forcePathStyle: true,
      credentials: { accessKeyId: "bench", secretAccessKey: "bench" },
    });
    try {
      return await measure(store, mib);
    } finally {
      store.close();
    }
  } finally {
    standIn.stop();
  }
}

async function measure(store: PackageStore, mib: number): Promise<S3PackageBenchResult> {
  const block = randomBytes(MIB);
  let written = 0;
  async function* bytes() {
    for (let i = 0; i < mib; i++) {
      const chunk = Buffer.from(block.subarray(0, MIB - (i % 7)));
      written += chunk.length;
      yield chunk;
    }
  }
  const rss = watchRss(20);
  let t0 = Date.now();
  const upload = await store.create("bench/package.zip");
  await pipeline(Readable.from(bytes()), upload.stream);
  const size = await upload.commit();
  const uploadSeconds = (Date.now() - t0) / 1000;
  const rssUploadPeak = rss.peak();
  t0 = Date.now();
  const opened = await store.open("bench/package.zip");
  let read = 0;
  for await (const chunk of opened?.body ?? []) read += (chunk as Buffer).length;
  const readSeconds = (Date.now() - t0) / 1000;
  rss.stop();
  return {
    mib,
    bytes: size,
    readBytes: read,
    uploadSeconds,
    uploadMiBPerSecond: size / MIB / uploadSeconds,
    readSeconds,
    readMiBPerSecond: read / MIB / readSeconds,
    rssBefore: rss.before,
    rssUploadPeak,
    rssPeak: rss.peak(),
    intact: size === written && read === size,
  };
}

/** One line: MiB/s up and back, and the RSS figures (MiB). */
export function renderS3PackageBench(r: S3PackageBenchResult): string {
  return (
    `${mb(r.bytes)} MiB up in ${r.uploadSeconds.toFixed(2)} s (${r.uploadMiBPerSecond.toFixed(0)} MiB/s), ` +
    `read back ${mb(r.readBytes)} MiB in ${r.readSeconds.toFixed(2)} s (${r.readMiBPerSecond.toFixed(0)} MiB/s); ` +
    `RSS before ${mb(r.rssBefore)} MiB, peak during the upload ${mb(r.rssUploadPeak)} MiB, peak overall ${mb(r.rssPeak)} MiB`
  );
}
