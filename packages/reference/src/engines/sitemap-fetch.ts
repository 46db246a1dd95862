// Fetches one sitemap document through the http client and returns its text (interface-spec "POST /sitemap" 1:
// gzipped sitemaps are followed). A `.gz` sitemap is recognised by its magic bytes, whatever its name or type says,
// and inflated with a cap on the output (issue 5: a gzip bomb must not exhaust memory).
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

// inflated on libuv's thread pool, not the event loop (issue 12): a sitemap may inflate to maxDocumentBytes
const inflate = promisify(gunzip);

import type { EngineResult } from "@plumbline-kit/platform/engines";
import type { HttpClient } from "./http-client.ts";

export interface SitemapLimits {
  /** how deep sitemap indexes are followed (an index of indexes is depth 2) */
  maxDepth: number;
  /** sitemap documents fetched at most, robots.txt not counted */
  maxDocuments: number;
  /** URLs returned at most */
  maxUrls: number;
  /** bytes of one document, compressed or not (sitemaps.org caps a sitemap at 50 MB uncompressed) */
  maxDocumentBytes: number;
  /** the whole discovery, after which what was found is returned */
  timeBudgetMs: number;
}

export const DEFAULT_SITEMAP_LIMITS: SitemapLimits = {
  maxDepth: 3,
  maxDocuments: 50,
  maxUrls: 50_000,
  maxDocumentBytes: 50 * 1024 * 1024,
  timeBudgetMs: 30_000,
};

const ACCEPT = "application/xml,text/xml;q=0.9,application/gzip;q=0.8,text/plain;q=0.7,*/*;q=0.5";
const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

export type FetchedDocument = EngineResult<{ url: string; status: number; text: string }>;

export async function fetchDocument(
  http: HttpClient,
  url: string,
  limits: SitemapLimits,
  signal?: AbortSignal,
): Promise<FetchedDocument> {
  const r = await http.fetch(url, { accept: ACCEPT, maxBytes: limits.maxDocumentBytes, signal });
  if (!r.ok) return r;
  let body = r.value.body;
  if (isGzip(body)) {
    try {
      body = await inflate(body, { maxOutputLength: limits.maxDocumentBytes });
    } catch (err) {
      return {
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
        message: `The sitemap ${url} did not inflate: ${(err as Error).message}`,
      };
    }
  }
  return { ok: true, value: { url: r.value.url, status: r.value.status, text: body.toString("utf8") } };
}
