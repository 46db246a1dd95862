// What names an S3-compatible package store (issue 11 "Scale-out"): its options and the checks of the flags that give
// them. Apart from s3-package-store.ts so that reading the flags does not load the AWS SDK (~0.2 s of CPU and its
// modules on the event loop's heap at every start of the reference, bucket or not).

export interface S3PackageStoreOptions {
  bucket: string;
  /** packages are written under PREFIX/ (slash-separated plain segments) */
  prefix?: string;
  /** an S3-compatible endpoint (MinIO, Ceph, R2, …); default: AWS, or the SDK's AWS_ENDPOINT_URL_S3 */
  endpoint?: string;
  /** default $AWS_REGION, else us-east-1 */
  region?: string;
  /** path-style addressing (ENDPOINT/BUCKET/KEY), which MinIO and most self-hosted stores need */
  forcePathStyle?: boolean;
  /** bytes of one multipart part, at least 5 MiB (S3's minimum); default 5 MiB */
  partSize?: number;
  /** explicit credentials (tests); default: the SDK's standard chain */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** An S3 bucket name: 3-63 lowercase letters, digits, dots and hyphens. */
export const validBucket = (b: string) => BUCKET.test(b);
const PREFIX = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

/** `s3://BUCKET[/PREFIX]` (the `--package-store` flag) into its parts; throws on anything else. */
export function parsePackageStoreUrl(text: string): { bucket: string; prefix?: string } {
  const m = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(text);
  const bucket = m?.[1] ?? "";
  const prefix = m?.[2]?.replace(/\/+$/, "") || undefined;
  if (!m || !BUCKET.test(bucket) || (prefix !== undefined && !validPrefix(prefix)))
    throw new Error(
      `--package-store takes s3://BUCKET[/PREFIX] (a bucket name of 3-63 lowercase letters, digits, dots and hyphens; a prefix of plain path segments), not "${text}"`,
    );
  return prefix ? { bucket, prefix } : { bucket };
}

/** A prefix of plain path segments (no `.` or `..`). */
export const validPrefix = (p: string) => PREFIX.test(p) && !p.split("/").some((s) => s === "." || s === "..");

/** An endpoint is an http(s) origin, perhaps with a path; credentials never ride in it. */
export function checkS3Endpoint(endpoint: string): string {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    throw new Error(`--s3-endpoint takes an http(s) URL, not "${endpoint}"`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new Error(`--s3-endpoint takes an http(s) URL, not "${endpoint}"`);
  if (u.username || u.password)
    throw new Error("--s3-endpoint takes no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead");
  return endpoint;
}
