// A target URL that is not http(s), or whose host cannot name a host, is the caller's bad value (D-target-refusal;
// reference/platform/target-url.ts): 400 PLB_BAD_VALUE with the same message on the mock and the reference, on
// every operation that takes a URL, uncharged; a batch answers it for that entry. Before, the reference answered
// 502 for `htp:` and the mock 502 or 400 depending on whether the URL had a host.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningReference, startReference } from "../start-reference.ts";

const KEY = "target-url-key";
const CREDITS = 1000;
let ref: RunningReference;
let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-target-url-"));
  [ref, mock] = await Promise.all([
    startReference({ port: 0, dataDir: dir, keys: [{ key: KEY, credits: CREDITS }], rateLimits: { perAccount: 0 } }),
    startMock({ port: 0, keys: [{ key: KEY, credits: CREDITS }], rateLimits: { perAccount: 0 } }),
  ]);
}, 60_000);

afterAll(async () => {
  await ref?.close();
  await mock?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
async function post(base: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const balance = async (base: string) =>
  ((await (await fetch(`${base}/usage`, { headers })).json()) as { usage: number }).usage;

const NOT_HTTP = [
  "htp://example.com/",
  "file:///etc/passwd",
  "ftp://example.com/readme",
  "javascript:alert(1)",
  "data:text/html,<h1>inline</h1>",
  "mailto:someone@example.com",
  "gopher://example.com/",
];
const BAD_HOST = ["http://exa mple.com/", "http://-bad-.example/", "https://a..example/"];
const OPERATIONS = ["/crawl", "/extract", "/screenshot", "/sitemap", "/deepcrawl"];

describe("target URLs that cannot be fetched (D-target-refusal)", () => {
  it("answer 400 PLB_BAD_VALUE on every operation, the mock and the reference alike, uncharged", async () => {
    const before = [await balance(ref.url), await balance(mock.url)];
    for (const url of [...NOT_HTTP, ...BAD_HOST]) {
      for (const path of OPERATIONS) {
        const [r, m] = await Promise.all([post(ref.url, path, { url }), post(mock.url, path, { url })]);
        if (r.status === 422) {
          // not a `format: uri` at all (a space in the host): validation's answer, on both
          expect([m.status, m.body.code], `${path} ${url}`).toEqual([422, r.body.code]);
          continue;
        }
        expect([r.status, r.body.code], `${path} ${url}: ${JSON.stringify(r.body)}`).toEqual([400, "PLB_BAD_VALUE"]);
        expect(r.body.ok).toBe(false);
        expect(r.body.message, `${path} ${url}`).toMatch(/^The target .* (is not an http\(s\) URL|has .*host name)/);
        expect(m, `${path} ${url} on the mock`).toEqual(r);
      }
    }
    expect([await balance(ref.url), await balance(mock.url)]).toEqual(before);
  });

  it("fail the crawl batch entry that names one, not the batch, on both", async () => {
    for (const base of [ref.url, mock.url]) {
      const before = await balance(base);
      // no entry succeeds: the first entry's failure answers (D-crawl-batch), free
      const crawl = await post(base, "/crawl", [{ url: "file:///etc/passwd" }, { url: "htp://example.com/" }]);
      expect([crawl.status, crawl.body.code, crawl.body.message], base).toEqual([
        400,
        "PLB_BAD_VALUE",
        "The target file:///etc/passwd is not an http(s) URL",
      ]);
      expect(await balance(base)).toBe(before);
    }
    // beside a page: the page is answered and charged, the refused entry left out, free (the mock serves any page)
    const before = await balance(mock.url);
    const mixed = await post(mock.url, "/crawl", [{ url: "ftp://example.com/" }, { url: "https://example.com/" }]);
    expect(mixed.status).toBe(200);
    const pages = mixed.body as unknown as Array<{ crawlParameters: { url: string } }>;
    expect(pages.map((p) => p.crawlParameters.url)).toEqual(["https://example.com/"]);
    expect(await balance(mock.url)).toBe(before - 1);
  });
});
