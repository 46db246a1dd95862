// Benchmark (a script, not a test): one package of N MiB streamed into the S3 package store and read back, against
// the S3 stand-in running in a child process (so its copy of the bytes is not counted here). Reports MiB/s both ways
// and this process's peak RSS against its RSS before, which shows the upload holds parts, not the package.
//   npx tsx bench/s3-package-bench.ts [mib=256]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createS3PackageStore } from "../reference/deepcrawl/s3-package-store.ts";
import { mb, watchRss } from "./rss-peak.ts";

const mib = Number(process.argv[2] ?? 256);
const standIn = spawn(
  process.execPath,
  [
    "--import",
    "tsx",
    "-e",
    'import("./test-support/s3-stand-in.ts").then(async (m) => console.log((await m.startS3StandIn({ buckets: ["bench"] })).url))',
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const [line] = (await once(standIn.stdout, "data")) as [Buffer];
const store = createS3PackageStore({
  bucket: "bench",
  endpoint: line.toString().trim(),
  forcePathStyle: true,
  credentials: { accessKeyId: "bench", secretAccessKey: "bench" },
});
const block = randomBytes(1024 * 1024);
async function* bytes() {
  for (let i = 0; i < mib; i++) yield Buffer.from(block.subarray(0, 1024 * 1024 - (i % 7)));
}
const rss = watchRss(20);
const before = rss.before;
let t0 = Date.now();
const upload = await store.create("bench/package.zip");
await pipeline(Readable.from(bytes()), upload.stream);
const size = await upload.commit();
const upSeconds = (Date.now() - t0) / 1000;
const uploadPeak = rss.peak();
t0 = Date.now();
const opened = await store.open("bench/package.zip");
let read = 0;
for await (const chunk of opened?.body ?? []) read += (chunk as Buffer).length;
const downSeconds = (Date.now() - t0) / 1000;
rss.stop();
console.log(
  `${mb(size)} MiB up in ${upSeconds.toFixed(2)} s (${(size / 1048576 / upSeconds).toFixed(0)} MiB/s), ` +
    `read back ${mb(read)} MiB in ${downSeconds.toFixed(2)} s; RSS before ${mb(before)} MiB, ` +
    `peak during the upload ${mb(uploadPeak)} MiB, peak overall ${mb(rss.peak())} MiB`,
);
store.close();
standIn.kill();
