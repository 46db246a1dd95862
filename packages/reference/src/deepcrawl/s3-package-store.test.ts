// The S3 package store against the S3 stand-in (test-support/s3-stand-in.ts): a package larger than several parts
// streams through a multipart upload and reads back byte for byte, an abandoned or failed upload leaves neither an
// object nor a pending multipart upload, missing keys read as null, and a store that cannot be reached says so.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3StandIn, startS3StandIn } from "../../../../test-support/s3-stand-in.ts";
import { createS3PackageStore, type S3PackageStore } from "./s3-package-store.ts";
import { parsePackageStoreUrl } from "./s3-package-store-options.ts";

const MIB = 1024 * 1024;
const credentials = { accessKeyId: "stand-in", secretAccessKey: "stand-in" };
let s3: S3StandIn;
let store: S3PackageStore;

beforeAll(async () => {
  s3 = await startS3StandIn({ buckets: ["packages"] });
  store = createS3PackageStore({
    bucket: "packages",
    prefix: "tenant/zips",
    endpoint: s3.url,
    forcePathStyle: true,
    credentials,
  });
});
afterAll(async () => {
  store?.close();
  await s3?.close();
});

/** `total` pseudo-random bytes in 64 KiB chunks, produced only as they are read; `seen` records each chunk's bytes */
function source(total: number, seen: (produced: number) => void): { body: Readable; sha: () => string } {
  const hash = createHash("sha256");
  async function* chunks() {
    let produced = 0;
    while (produced < total) {
      const chunk = randomBytes(Math.min(64 * 1024, total - produced));
      produced += chunk.length;
      hash.update(chunk);
      seen(produced);
      yield chunk;
    }
  }
  return { body: Readable.from(chunks()), sha: () => hash.digest("hex") };
}

const count = (op: string) => s3.log.filter((l) => l.startsWith(`${op} `)).length;
const sha = async (body: Readable) => {
  const hash = createHash("sha256");
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest("hex");
};

describe("the S3 package store", () => {
  it("streams a package of several parts into a multipart upload and reads it back whole", async () => {
    s3.log.length = 0;
    const total = 23 * MIB;
    let ahead = 0;
    // how far the writer ever got ahead of what the bucket had been sent: bounded by parts, not the package
    const { body, sha: written } = source(total, (produced) => {
      ahead = Math.max(ahead, produced - count("UploadPart") * 5 * MIB);
    });
    const upload = await store.create("deepcrawl/dc_big/1.zip");
    await pipeline(body, upload.stream);
    expect(await upload.commit()).toBe(total);
    expect(ahead).toBeLessThan(2 * 5 * MIB);
    expect(count("CreateMultipartUpload")).toBe(1);
    expect(count("UploadPart")).toBe(5);
    expect(count("CompleteMultipartUpload")).toBe(1);
    expect(s3.keys("packages")).toEqual(["tenant/zips/deepcrawl/dc_big/1.zip"]);
    const opened = await store.open("deepcrawl/dc_big/1.zip");
    expect(opened?.bytes).toBe(total);
    expect(await sha(opened?.body as Readable)).toBe(written());
  });

  it("writes a small package with one PUT", async () => {
    const upload = await store.create("deepcrawl/dc_small/1.zip");
    await pipeline(Readable.from([Buffer.from("PK small zip")]), upload.stream);
    expect(await upload.commit()).toBe(12);
    const opened = await store.open("deepcrawl/dc_small/1.zip");
    expect(opened?.bytes).toBe(12);
    expect(await sha(opened?.body as Readable)).toBe(createHash("sha256").update("PK small zip").digest("hex"));
  });

  it("leaves no object and no pending upload when a package is abandoned midway", async () => {
    s3.log.length = 0;
    const upload = await store.create("deepcrawl/dc_abandoned/1.zip");
    // more than a part, so the multipart upload exists, then the writer gives up without ending the stream
    const { body } = source(7 * MIB, () => {});
    body.pipe(upload.stream, { end: false });
    await new Promise<void>((resolve) => body.on("end", resolve));
    await upload.abort();
    expect(count("CreateMultipartUpload")).toBe(1);
    expect(count("AbortMultipartUpload")).toBe(1);
    expect(s3.pendingUploads()).toEqual([]);
    expect(s3.keys("packages")).not.toContain("tenant/zips/deepcrawl/dc_abandoned/1.zip");
    expect(await store.open("deepcrawl/dc_abandoned/1.zip")).toBeNull();
  });

  it("drops the object when a package is abandoned after its stream ended", async () => {
    const upload = await store.create("deepcrawl/dc_late/1.zip");
    await pipeline(Readable.from([Buffer.from("complete bytes")]), upload.stream);
    await upload.abort();
    expect(await store.open("deepcrawl/dc_late/1.zip")).toBeNull();
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("fails the commit and stops the writer when the bucket refuses a part", async () => {
    s3.refuse("UploadPart");
    try {
      const upload = await store.create("deepcrawl/dc_refused/1.zip");
      const { body } = source(12 * MIB, () => {});
      await expect(pipeline(body, upload.stream)).rejects.toThrow(/storing the package .* failed: AccessDenied/);
      await expect(upload.commit()).rejects.toThrow(/AccessDenied.*403/);
      await upload.abort();
      expect(s3.pendingUploads()).toEqual([]);
      expect(await store.open("deepcrawl/dc_refused/1.zip")).toBeNull();
    } finally {
      s3.refuse(null);
    }
  });

  it("sweeps the multipart upload of a writer that died midway, keeping committed packages", async () => {
    const done = await store.create("deepcrawl/dc_killed/1.zip");
    await pipeline(Readable.from([Buffer.from("attempt one, committed")]), done.stream);
    await done.commit();
    // a second writer sends a part, then is never heard of again (its process was killed)
    const killed = await store.create("deepcrawl/dc_killed/2.zip");
    const { body } = source(6 * MIB, () => {});
    body.pipe(killed.stream, { end: false });
    await new Promise<void>((resolve) => body.on("end", resolve));
    await expect.poll(() => s3.pendingUploads().length, { timeout: 30_000 }).toBe(1);
    const elsewhere = await store.create("deepcrawl/dc_other/1.zip");
    source(6 * MIB, () => {}).body.pipe(elsewhere.stream, { end: false });
    await expect.poll(() => s3.pendingUploads().length, { timeout: 30_000 }).toBe(2);
    await store.sweep("deepcrawl/dc_killed");
    expect(s3.pendingUploads().map((u) => u.key)).toEqual(["tenant/zips/deepcrawl/dc_other/1.zip"]);
    expect(await store.open("deepcrawl/dc_killed/1.zip")).not.toBeNull();
    await elsewhere.abort();
    await killed.abort();
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("reads a missing key as null and removes packages", async () => {
    expect(await store.open("deepcrawl/dc_never/1.zip")).toBeNull();
    expect(await store.open("deepcrawl/dc_small/1.zip")).not.toBeNull();
    await store.remove("deepcrawl/dc_small/1.zip");
    expect(await store.open("deepcrawl/dc_small/1.zip")).toBeNull();
    await store.remove("deepcrawl/dc_small/1.zip"); // removing twice is no error, as in S3
  });

  it("refuses the keys the file store refuses", async () => {
    for (const key of ["../escape.zip", "deepcrawl/../x.zip", "/absolute.zip", "deepcrawl//x.zip", "a b.zip", ""]) {
      await expect(store.create(key)).rejects.toThrow(/bad package key/);
      await expect(store.open(key)).rejects.toThrow(/bad package key/);
      await expect(store.remove(key)).rejects.toThrow(/bad package key/);
    }
  });

  it("checks the bucket at start-up, saying what is wrong", async () => {
    await expect(store.check()).resolves.toBeUndefined();
    const missing = createS3PackageStore({ bucket: "absent", endpoint: s3.url, forcePathStyle: true, credentials });
    await expect(missing.check()).rejects.toThrow(
      /s3:\/\/absent at http:\/\/127\.0\.0\.1:\d+ .*does not exist \(404\)/,
    );
    missing.close();
  });

  it("fails clearly, never as a missing package, when the endpoint cannot be reached", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = createS3PackageStore({
      bucket: "packages",
      endpoint: `http://127.0.0.1:${closed}`,
      forcePathStyle: true,
      credentials,
    });
    try {
      await expect(down.check()).rejects.toThrow(/cannot be used: it cannot be reached: .*ECONNREFUSED/);
      await expect(down.open("deepcrawl/dc_x/1.zip")).rejects.toThrow(/reading the package .* failed/);
    } finally {
      down.close();
    }
  });

  it("parses s3://BUCKET[/PREFIX] and refuses anything else", () => {
    expect(parsePackageStoreUrl("s3://my-bucket")).toEqual({ bucket: "my-bucket" });
    expect(parsePackageStoreUrl("s3://my.bucket/a/b/")).toEqual({ bucket: "my.bucket", prefix: "a/b" });
    for (const bad of [
      "my-bucket",
      "s3://",
      "s3://Upper",
      "s3://b",
      "s3://ok-bucket/../x",
      "s3://ok-bucket/a//b",
      "file:///tmp",
    ])
      expect(() => parsePackageStoreUrl(bad), bad).toThrow(/--package-store takes s3:\/\/BUCKET\[\/PREFIX\]/);
  });
});
