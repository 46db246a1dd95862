// Bodies as a reader wants them: Content-Encoding removed (bounded, so a compression bomb from a hostile upstream
// costs at most the limit), and text kept as text only when it is textual and valid UTF-8.
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, zstdDecompressSync } from "node:zlib";

export type Decoded = { ok: true; bytes: Buffer } | { ok: false; reason: string };

function decodeOne(coding: string, bytes: Buffer, maxBytes: number): Buffer {
  const opts = { maxOutputLength: maxBytes };
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(bytes, opts);
    case "deflate":
      // RFC 9110's deflate is zlib-wrapped; some servers send it raw
      try {
        return inflateSync(bytes, opts);
      } catch {
        return inflateRawSync(bytes, opts);
      }
    case "br":
      return brotliDecompressSync(bytes, opts);
    case "zstd":
      return zstdDecompressSync(bytes, opts);
    default:
      throw new Error(`unknown content coding "${coding}"`);
  }
}

/** The body with every coding of `contentEncoding` undone, last applied first; at most `maxBytes` decoded. */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Decoded {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  let out = bytes;
  try {
    for (const coding of codings.reverse()) out = decodeOne(coding, out, maxBytes);
  } catch (err) {
    return { ok: false, reason: `could not undo Content-Encoding ${contentEncoding}: ${(err as Error).message}` };
  }
  return { ok: true, bytes: out };
}

/** Media types kept as text in a recording (HAR conventions): JSON, XML, YAML, text/*, anything +json or +xml. */
export function isTextual(mimeType: string | undefined): boolean {
  const t = (mimeType ?? "").split(";")[0].trim().toLowerCase();
  if (t.startsWith("text/")) return true;
  if (t.endsWith("+json") || t.endsWith("+xml")) return true;
  return [
    "application/json",
    "application/xml",
    "application/yaml",
    "application/x-yaml",
    "application/javascript",
    "application/x-ndjson",
    "application/x-www-form-urlencoded",
  ].includes(t);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as UTF-8 text, or null when they are not valid UTF-8. */
export function utf8OrNull(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
