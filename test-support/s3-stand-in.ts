// A small S3 stand-in for tests (issue 11 "Scale-out": the S3-compatible package store), on 127.0.0.1, in memory.
// s3rver 3.7.1 (the npm stand-in, last released 2021) was tried first: it answers AbortMultipartUpload with
// MethodNotAllowed and has no ListMultipartUploads, so an aborted upload cannot be shown to leave nothing behind.
// Path-style requests only (the client needs forcePathStyle). Implemented, with S3's status codes and XML error
// bodies: HeadBucket, PutObject, CreateMultipartUpload, UploadPart, CompleteMultipartUpload (InvalidPart,
// InvalidPartOrder, EntityTooSmall under 5 MiB for every part but the last), AbortMultipartUpload,
// ListMultipartUploads (prefix; no paging), GetObject (no Range), HeadObject, DeleteObject; anything else answers 501
// NotImplemented. Bodies are checked against x-amz-content-sha256 and x-amz-checksum-crc32 as S3 does, but SigV4
// signatures are accepted WITHOUT being verified (any credentials do): this tests the store's use of the protocol,
// not S3's security. aws-chunked (streaming-signed) bodies are refused, other checksum algorithms ignored.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32 } from "node:zlib";

export type S3Operation =
  | "PutObject"
  | "CreateMultipartUpload"
  | "UploadPart"
  | "CompleteMultipartUpload"
  | "GetObject";

interface StoredObject {
  body: Buffer;
  etag: string;
  contentType: string;
  lastModified: Date;
}
interface PendingUpload {
  bucket: string;
  key: string;
  contentType: string;
  parts: Map<number, { body: Buffer; etag: string }>;
}

export interface S3StandIn {
  url: string;
  /** the object keys of a bucket, sorted */
  keys(bucket: string): string[];
  /** multipart uploads begun and neither completed nor aborted */
  pendingUploads(): Array<{ bucket: string; key: string; uploadId: string }>;
  /** every request of this kind answers 403 AccessDenied until called again with null */
  refuse(operation: S3Operation | null): void;
  /** requests received, as "OPERATION key" ("HeadBucket" alone) */
  log: string[];
  close(): Promise<void>;
}

const MIN_PART = 5 * 1024 * 1024;
const MAX_BODY = 64 * 1024 * 1024;
const xmlEscape = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string);
const md5 = (b: Buffer) => createHash("md5").update(b).digest("hex");

class S3Error extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The body, checked as S3 checks it: its SHA-256 when the signature covers it, its CRC32 when the client sent one. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  if (
    /aws-chunked/i.test(req.headers["content-encoding"] ?? "") ||
    /^STREAMING-/.test(`${req.headers["x-amz-content-sha256"]}`)
  )
    throw new S3Error(501, "NotImplemented", "This stand-in does not decode aws-chunked bodies");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new S3Error(400, "EntityTooLarge", "Your proposed upload exceeds the stand-in's limit");
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  const sha = req.headers["x-amz-content-sha256"];
  if (typeof sha === "string" && /^[0-9a-f]{64}$/.test(sha) && createHash("sha256").update(body).digest("hex") !== sha)
    throw new S3Error(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match");
  const crc = req.headers["x-amz-checksum-crc32"];
  if (typeof crc === "string" && crc !== crc32Of(body))
    throw new S3Error(400, "BadDigest", "The CRC32 you specified did not match the calculated checksum.");
  return body;
}

const crc32Of = (b: Buffer) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(b));
  return out.toString("base64");
};

export async function startS3StandIn(options: { buckets: string[] }): Promise<S3StandIn> {
  const buckets = new Map(options.buckets.map((b) => [b, new Map<string, StoredObject>()]));
  const uploads = new Map<string, PendingUpload>();
  const log: string[] = [];
  let refused: S3Operation | null = null;

  function xml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { "content-type": "application/xml", ...headers });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  }
  function objectHeaders(o: StoredObject) {
    return {
      "content-type": o.contentType,
      "content-length": String(o.body.length),
      etag: o.etag,
      "last-modified": o.lastModified.toUTCString(),
    };
  }
  const check = (op: S3Operation) => {
    if (refused === op) throw new S3Error(403, "AccessDenied", "Access Denied");
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const [, rawBucket = "", ...rest] = url.pathname.split("/");
    const bucketName = decodeURIComponent(rawBucket);
    const key = decodeURIComponent(rest.join("/"));
    const q = url.searchParams;
    const method = req.method ?? "GET";
    const bucket = buckets.get(bucketName);
    if (!bucket) throw new S3Error(404, "NoSuchBucket", "The specified bucket does not exist");
    const op = (name: string) => log.push(`${name} ${key}`);
    const uploadOf = () => {
      const u = uploads.get(q.get("uploadId") ?? "");
      if (!u || u.key !== key) throw new S3Error(404, "NoSuchUpload", "The specified upload does not exist");
      return u;
    };

    if (key === "") {
      if (method === "HEAD") {
        log.push("HeadBucket");
        return res.writeHead(200).end();
      }
      if (method === "GET" && q.has("uploads")) {
        op("ListMultipartUploads");
        const prefix = q.get("prefix") ?? "";
        const items = [...uploads].filter(([, u]) => u.bucket === bucketName && u.key.startsWith(prefix));
        const entries = items.map(
          ([id, u]) => `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${id}</UploadId></Upload>`,
        );
        return xml(
          res,
          200,
          `<ListMultipartUploadsResult><Bucket>${bucketName}</Bucket><IsTruncated>false</IsTruncated>${entries.join("")}</ListMultipartUploadsResult>`,
        );
      }
      throw new S3Error(501, "NotImplemented", `${method} on a bucket is not implemented by this stand-in`);
    }
    if (method === "POST" && q.has("uploads")) {
      op("CreateMultipartUpload");
      check("CreateMultipartUpload");
      const id = randomBytes(12).toString("hex");
      const contentType = req.headers["content-type"] ?? "binary/octet-stream";
      uploads.set(id, { bucket: bucketName, key, contentType, parts: new Map() });
      return xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucketName}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (method === "PUT" && q.has("uploadId")) {
      op("UploadPart");
      const u = uploadOf();
      check("UploadPart");
      const n = Number(q.get("partNumber"));
      if (!Number.isInteger(n) || n < 1 || n > 10_000)
        throw new S3Error(400, "InvalidArgument", "Part number must be an integer between 1 and 10000");
      const body = await readBody(req);
      const etag = `"${md5(body)}"`;
      u.parts.set(n, { body, etag });
      const crc = req.headers["x-amz-checksum-crc32"];
      return res.writeHead(200, { etag, ...(typeof crc === "string" ? { "x-amz-checksum-crc32": crc } : {}) }).end();
    }
    if (method === "POST" && q.has("uploadId")) {
      op("CompleteMultipartUpload");
      const u = uploadOf();
      check("CompleteMultipartUpload");
      const text = (await readBody(req)).toString("utf8");
      const listed = [...text.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
        n: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1])?.[1]),
        etag: /<ETag>([^<]*)<\/ETag>/.exec(m[1])?.[1].replace(/&quot;/g, '"'),
      }));
      if (listed.length === 0) throw new S3Error(400, "MalformedXML", "The XML you provided was not well-formed");
      const bodies: Buffer[] = [];
      for (const [i, p] of listed.entries()) {
        if (i > 0 && p.n <= listed[i - 1].n)
          throw new S3Error(400, "InvalidPartOrder", "The list of parts was not in ascending order");
        const part = u.parts.get(p.n);
        if (!part || part.etag !== p.etag) throw new S3Error(400, "InvalidPart", `Part ${p.n} could not be found`);
        if (i < listed.length - 1 && part.body.length < MIN_PART)
          throw new S3Error(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed size");
        bodies.push(part.body);
      }
      const digest = createHash("md5");
      for (const p of listed) digest.update(Buffer.from(md5(u.parts.get(p.n)?.body as Buffer), "hex"));
      const etag = `"${digest.digest("hex")}-${listed.length}"`;
      bucket.set(key, { body: Buffer.concat(bodies), etag, contentType: u.contentType, lastModified: new Date() });
      uploads.delete(q.get("uploadId") as string);
      return xml(
        res,
        200,
        `<CompleteMultipartUploadResult><Bucket>${bucketName}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`,
      );
    }
    if (method === "DELETE" && q.has("uploadId")) {
      op("AbortMultipartUpload");
      uploadOf();
      uploads.delete(q.get("uploadId") as string);
      return res.writeHead(204).end();
    }
    if (method === "PUT") {
      op("PutObject");
      check("PutObject");
      if (req.headers["x-amz-copy-source"]) throw new S3Error(501, "NotImplemented", "CopyObject is not implemented");
      const body = await readBody(req);
      const etag = `"${md5(body)}"`;
      const contentType = req.headers["content-type"] ?? "binary/octet-stream";
      bucket.set(key, { body, etag, contentType, lastModified: new Date() });
      return res.writeHead(200, { etag }).end();
    }
    if (method === "GET" || method === "HEAD") {
      op(method === "GET" ? "GetObject" : "HeadObject");
      if (method === "GET") check("GetObject");
      if (req.headers.range) throw new S3Error(501, "NotImplemented", "Range requests are not implemented");
      const o = bucket.get(key);
      if (!o) throw new S3Error(404, "NoSuchKey", "The specified key does not exist.");
      res.writeHead(200, objectHeaders(o));
      return res.end(method === "GET" ? o.body : undefined);
    }
    if (method === "DELETE") {
      op("DeleteObject");
      bucket.delete(key);
      return res.writeHead(204).end();
    }
    throw new S3Error(501, "NotImplemented", `${method} is not implemented by this stand-in`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const e = err instanceof S3Error ? err : new S3Error(500, "InternalError", String(err));
      if (res.headersSent) return res.destroy();
      const requestId = randomBytes(8).toString("hex").toUpperCase();
      // a HEAD answer has no body: the client reads the status alone (HeadBucket, HeadObject)
      if (req.method === "HEAD") return res.writeHead(e.status, { "x-amz-request-id": requestId }).end();
      xml(
        res,
        e.status,
        `<Error><Code>${e.code}</Code><Message>${xmlEscape(e.message)}</Message><RequestId>${requestId}</RequestId></Error>`,
        { "x-amz-request-id": requestId },
      );
      req.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys: (name) => [...(buckets.get(name)?.keys() ?? [])].sort(),
    pendingUploads: () => [...uploads].map(([uploadId, u]) => ({ bucket: u.bucket, key: u.key, uploadId })),
    refuse(operation) {
      refused = operation;
    },
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
