// How a target's failure reads to the caller of /crawl or /sitemap (interface-spec "Errors": crawl lists 400, 404,
// 410, 502 among its statuses; sitemap lists 400 and 502; neither lists 403).
//   - an address the SSRF guard refuses      → PLB_BAD_VALUE (400): the URL is valid for the schema but refused
//     outside it (catalogue), deterministic, never worth a retry, free (D-charging). PLB_TARGET_FORBIDDEN (403)
//     stays the http client's own value and screenshot's answer, the only operation that lists 403.
//   - a binary body on /crawl                → PLB_BAD_VALUE (400) for the same reasons: retrying cannot help.
//   - the target answered 404 / 410 (crawl)  → PLB_TARGET_NOT_FOUND / PLB_TARGET_GONE (charged, D-charging).
//   - any other 4xx/5xx, unreachable, slow   → PLB_UPSTREAM_FAILED (502, free).
import type { ErrorCode } from "@plumbline-kit/contract";

export interface Failure {
  ok: false;
  code: ErrorCode;
  message?: string;
}

/** A failure of the http client, in the vocabulary of /crawl and /sitemap. */
export function fetchFailure(f: Failure): Failure {
  return f.code === "PLB_TARGET_FORBIDDEN" ? { ok: false, code: "PLB_BAD_VALUE", message: f.message } : f;
}

/** The failure for a target that answered `status` (>= 400), or that answered a redirect with no Location. */
export function statusFailure(status: number, url: string, operation: "crawl" | "sitemap"): Failure {
  const message = `The target ${url} answered ${status}`;
  if (operation === "crawl" && status === 404) return { ok: false, code: "PLB_TARGET_NOT_FOUND", message };
  if (operation === "crawl" && status === 410) return { ok: false, code: "PLB_TARGET_GONE", message };
  return { ok: false, code: "PLB_UPSTREAM_FAILED", message };
}

export function binaryFailure(contentType: string, url: string): Failure {
  return {
    ok: false,
    code: "PLB_BAD_VALUE",
    message: `The target ${url} is ${contentType || "binary data"}, not a text or HTML page; /crawl returns readable text only`,
  };
}

/** Bytes declared as text that do not decode as text (D-target-refusal: refused as binary content is). */
export function unreadableFailure(contentType: string, url: string): Failure {
  return {
    ok: false,
    code: "PLB_BAD_VALUE",
    message: `The target ${url} sent bytes that do not read as text (declared ${contentType || "without a type"}); /crawl returns readable text only`,
  };
}
