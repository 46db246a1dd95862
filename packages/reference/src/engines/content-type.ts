// What kind of body a target sent, and its text (issue 5, "POST /crawl": non-HTML text types handled, binary types
// refused clearly). The Content-Type header decides; a missing one is sniffed from the first bytes.

import type { PageBody } from "./parse/parse-tasks.ts";

export type BodyKind = "html" | "text" | "binary";

/** `text/html; charset=utf-8` → `text/html` (lower case); "" when absent. */
export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0].trim().toLowerCase();
}

const TEXT = [
  /^text\//,
  /^application\/(json|xml|yaml|x-yaml|toml|javascript|ecmascript|x-ndjson|rss\+xml|atom\+xml)$/,
  /^application\/[\w.-]+\+(json|xml)$/,
];

function looksLikeText(head: Buffer): boolean {
  return !head.includes(0);
}

export function bodyKind(type: string, body: Buffer): BodyKind {
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (TEXT.some((re) => re.test(type))) return "text";
  if (type !== "") return "binary";
  const head = body.subarray(0, 1024);
  if (/^\s*<(!doctype html|html|head|body)\b/i.test(head.toString("latin1"))) return "html";
  return looksLikeText(head) ? "text" : "binary";
}

function decoderFor(label: string | undefined): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().replace(/^["']|["']$/g, ""));
  } catch {
    return null;
  }
}

/**
 * The body as text: the charset of the header, else (HTML) a `<meta charset>` within the first 2 KiB, else UTF-8.
 * TextDecoder drops a byte-order mark.
 */
export function decodeText(body: Buffer, contentType: string | undefined, kind: BodyKind): string {
  const declared = /charset\s*=\s*([^;]+)/i.exec(contentType ?? "")?.[1];
  let decoder = decoderFor(declared);
  if (!decoder && kind === "html") {
    const head = body.subarray(0, 2048).toString("latin1");
    decoder = decoderFor(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]);
  }
  return (decoder ?? new TextDecoder("utf-8")).decode(body);
}

/** A fetched answer as the parse pool reads it: its bytes, what they are (a readable kind) and where they came from. */
export function pageBody(
  res: { body: Uint8Array; url: string; headers: Record<string, string | undefined> },
  type: string,
  kind: PageBody["bodyKind"],
): PageBody {
  return {
    body: res.body,
    contentType: res.headers["content-type"],
    mediaType: type,
    bodyKind: kind,
    url: res.url,
    contentLanguage: res.headers["content-language"],
  };
}
