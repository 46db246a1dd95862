// The S3 stand-in answers as S3 does where the package store's tests rely on it: parts under 5 MiB refused unless
// last, a body whose checksum does not match refused, S3's error codes for a missing bucket, key or upload, and 501
// for what it does not implement (so a test can never pass on an operation the stand-in silently ignored).
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3StandIn, startS3StandIn } from "./s3-stand-in.ts";

let s3: S3StandIn;
let client: S3Client;
const Bucket = "stand-in-bucket";

beforeAll(async () => {
  s3 = await startS3StandIn({ buckets: [Bucket] });
  client = new S3Client({
    endpoint: s3.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "any", secretAccessKey: "any" },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => ({ name: "no error", status: 0 }),
    (e: { name: string; $metadata: { httpStatusCode: number } }) => ({
      name: e.name,
      status: e.$metadata.httpStatusCode,
    }),
  );

describe("the S3 stand-in", () => {
  it("refuses to complete an upload whose non-last part is under 5 MiB", async () => {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: "small-parts" }));
    const parts = [];
    for (const PartNumber of [1, 2]) {
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket, Key: "small-parts", UploadId, PartNumber, Body: Buffer.alloc(1024) }),
      );
      parts.push({ PartNumber, ETag });
    }
    const complete = new CompleteMultipartUploadCommand({
      Bucket,
      Key: "small-parts",
      UploadId,
      MultipartUpload: { Parts: parts },
    });
    expect(await failure(client.send(complete))).toEqual({ name: "EntityTooSmall", status: 400 });
    expect(s3.keys(Bucket)).toEqual([]);
  });

  it("refuses a body that does not match its checksum", async () => {
    const put = new PutObjectCommand({ Bucket, Key: "k", Body: "abc", ChecksumCRC32: "AAAAAA==" });
    expect(await failure(client.send(put))).toEqual({ name: "BadDigest", status: 400 });
  });

  it("answers S3's codes for a missing bucket, key and upload, and 501 for the rest", async () => {
    const get = (b: string, Key: string) => client.send(new GetObjectCommand({ Bucket: b, Key }));
    expect(await failure(get("absent-bucket", "k"))).toEqual({ name: "NoSuchBucket", status: 404 });
    expect(await failure(get(Bucket, "absent-key"))).toEqual({ name: "NoSuchKey", status: 404 });
    const part = new UploadPartCommand({ Bucket, Key: "k", UploadId: "nope", PartNumber: 1, Body: "x" });
    expect(await failure(client.send(part))).toEqual({ name: "NoSuchUpload", status: 404 });
    expect(await failure(client.send(new ListObjectsV2Command({ Bucket })))).toEqual({
      name: "NotImplemented",
      status: 501,
    });
  });
});
