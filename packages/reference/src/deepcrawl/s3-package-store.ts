// The S3-compatible package store (issue 11 "Scale-out": packages in "an S3-compatible bucket with @aws-sdk/client-s3
// when configured"): every instance given the same bucket serves every package, whichever instance wrote it.
// A package is streamed into a multipart upload (lib-storage's Upload: parts of `partSize`, one in flight), so memory
// holds about two parts whatever the size of the zip. The object appears only when the upload completes, so a reader
// never sees half a zip; an aborted or failed upload is aborted in the bucket too (no object, no parts left behind).
// Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles), never
// from a flag, so no secret reaches a command line or a log.
import { PassThrough, Readable, Transform } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checkPackageKey, type PackageStore } from "./package-store.ts";
import { checkS3Endpoint, type S3PackageStoreOptions, validBucket, validPrefix } from "./s3-package-store-options.ts";

export interface S3PackageStore extends PackageStore {
  /** HeadBucket: resolves when the bucket answers, else rejects saying what is wrong (start-up check) */
  check(): Promise<void>;
  close(): void;
}

const MIB = 1024 * 1024;
const CHECK_TIMEOUT_MS = 15_000;

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}
const statusOf = (err: unknown) => (err as SdkError)?.$metadata?.httpStatusCode;
const isMissingKey = (err: unknown) =>
  (err as SdkError)?.name === "NoSuchKey" || (statusOf(err) === 404 && (err as SdkError)?.name !== "NoSuchBucket");

function describe(err: unknown): string {
  const e = (err ?? {}) as SdkError;
  const status = statusOf(err);
  const text = `${e.name ?? "Error"}: ${e.message || e.code || String(err)}`;
  return status ? `${text} (HTTP ${status})` : text;
}

function explainCheck(err: unknown): string {
  const e = (err ?? {}) as SdkError;
  switch (statusOf(err)) {
    case 404:
      return "the bucket does not exist (404)";
    case 403:
      return "access denied (403): check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or another source of the SDK's standard chain) and the bucket's policy";
    case 301:
      return "the bucket is in another region (301): set --s3-region";
  }
  if (e.name === "CredentialsProviderError")
    return "no credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or another source of the SDK's standard chain)";
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
  return `it cannot be reached: ${describe(err)}`;
}

export function createS3PackageStore(o: S3PackageStoreOptions): S3PackageStore {
  const Bucket = o.bucket;
  if (!validBucket(Bucket)) throw new Error(`not an S3 bucket name: "${Bucket}"`);
  if (o.prefix !== undefined && !validPrefix(o.prefix)) throw new Error(`not a package key prefix: "${o.prefix}"`);
  if (o.endpoint !== undefined) checkS3Endpoint(o.endpoint);
  const partSize = o.partSize ?? 5 * MIB;
  if (!Number.isInteger(partSize) || partSize < 5 * MIB) throw new Error("partSize takes a whole number >= 5 MiB");
  const client = new S3Client({
    region: o.region ?? process.env.AWS_REGION ?? "us-east-1",
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    forcePathStyle: o.forcePathStyle ?? false,
    ...(o.credentials ? { credentials: o.credentials } : {}),
    // a store that stops answering fails the request instead of holding a task forever (a download whose client
    // reads nothing for that long is cut too)
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 120_000 },
  });
  const objectKey = (key: string) => (o.prefix ? `${o.prefix}/${checkPackageKey(key)}` : checkPackageKey(key));
  const location = `s3://${Bucket}${o.prefix ? `/${o.prefix}` : ""}${o.endpoint ? ` at ${new URL(o.endpoint).origin}` : ""}`;

  return {
    location,
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      } catch (err) {
        throw new Error(`the package store ${location} cannot be used: ${explainCheck(err)}`);
      }
    },
    async create(key) {
      const Key = objectKey(key);
      let bytes = 0;
      const stream = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback(null, chunk);
        },
      });
      // lib-storage destroys its Body when an upload fails, with no reason given; the writer's stream is kept apart so
      // that it fails with the upload's own error (below)
      const body = stream.pipe(new PassThrough());
      body.on("error", () => {}); // reaches the upload, which reports it through `done`
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: body, ContentType: "application/zip" },
        partSize,
        queueSize: 1,
      });
      const done = upload.done().catch((err: unknown) => {
        const failure = new Error(`storing the package ${key} failed: ${describe(err)}`);
        // the writer waits on the stream: a failed upload must stop it too
        stream.destroy(failure);
        throw failure;
      });
      done.catch(() => {}); // observed by commit/abort
      return {
        stream,
        async commit() {
          await done;
          return bytes;
        },
        async abort() {
          // a destroyed body fails the upload, and lib-storage then aborts the multipart upload before `done` settles
          stream.destroy();
          body.destroy(new Error("the package was abandoned"));
          const completed = await done.then(
            () => true,
            () => false,
          );
          // the body had already ended and the object exists: drop it
          if (completed) await client.send(new DeleteObjectCommand({ Bucket, Key }));
        },
      };
    },
    async open(key) {
      const Key = objectKey(key);
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key }));
        if (!(r.Body instanceof Readable) || r.ContentLength === undefined)
          throw new Error("the object came without a stream body or a length");
        return { body: r.Body, bytes: r.ContentLength };
      } catch (err) {
        if (isMissingKey(err)) return null;
        throw new Error(`reading the package ${key} failed: ${describe(err)}`);
      }
    },
    async remove(key) {
      const Key = objectKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key }));
      } catch (err) {
        throw new Error(`removing the package ${key} failed: ${describe(err)}`);
      }
    },
    async sweep(prefix) {
      // an instance killed mid-upload could not abort its multipart upload: the next attempt does (page by page)
      const Prefix = `${objectKey(prefix)}/`;
      let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
      try {
        for (;;) {
          const page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix, ...markers }));
          for (const u of page.Uploads ?? [])
            await client
              .send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }))
              .catch((err: unknown) => {
                if ((err as SdkError)?.name !== "NoSuchUpload") throw err;
              });
          if (!page.IsTruncated) return;
          markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
        }
      } catch (err) {
        throw new Error(`aborting the interrupted uploads under ${prefix} failed: ${describe(err)}`);
      }
    },
    close() {
      client.destroy();
    },
  };
}
