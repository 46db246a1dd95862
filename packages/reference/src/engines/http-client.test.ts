import { brotliCompressSync, gzipSync } from "node:zlib";
import { forbiddenReason } from "@plumbline-kit/platform/address-policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSite, serveSite } from "../test/fixture-site.ts";
import { createHttpClient, type HttpClient } from "./http-client.ts";

let site: FixtureSite;
const MiB = 1024 * 1024;
// the fixture's own address counts as public, every other forbidden address stays forbidden
const fixtureIsPublic = (ip: string) => (ip === "127.0.0.1" ? null : forbiddenReason(ip));
const userAgents: string[] = [];

beforeAll(async () => {
  site = await serveSite({
    "/hello": (req, res) => {
      userAgents.push(String(req.headers["user-agent"]));
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`hello ${req.headers.host}`);
    },
    "/moved": { status: 301, headers: { location: "/hello" } },
    "/loop": { status: 302, headers: { location: "/loop" } },
    "/to-loopback": { status: 302, headers: { location: "http://127.0.0.2:9/" } },
    "/to-metadata": { status: 307, headers: { location: "http://169.254.169.254/latest/meta-data/" } },
    "/to-private": { status: 302, headers: { location: "http://192.168.0.10/admin" } },
    "/big": { type: "text/plain", body: Buffer.alloc(6 * MiB, 97) },
    "/bomb": { type: "text/plain", headers: { "content-encoding": "gzip" }, body: gzipSync(Buffer.alloc(64 * MiB)) },
    "/gzip": { type: "text/plain", headers: { "content-encoding": "gzip" }, body: gzipSync("gzipped text") },
    "/br": { type: "text/plain", headers: { "content-encoding": "br" }, body: brotliCompressSync("brotli text") },
    "/slow": { type: "text/plain", body: "late", delayMs: 3000 },
    "/missing": { status: 404, body: "no" },
  });
});
afterAll(() => site.close());

async function withClient<T>(options: Parameters<typeof createHttpClient>[0], run: (c: HttpClient) => Promise<T>) {
  const client = createHttpClient(options);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

describe("http client: SSRF guard", () => {
  it("refuses 127.0.0.1 without allowPrivateNetwork, before connecting", async () => {
    const before = site.hits.length;
    const r = await withClient({}, (c) => c.fetch(`${site.url}/hello`));
    expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(!r.ok && r.message).toMatch(/loopback/);
    expect(site.hits.length).toBe(before);
  });

  it.each([
    "http://[::1]:9/",
    "http://0x7f000001:9/",
    "http://2130706433:9/",
    "http://0:9/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::127.0.0.1]:9/",
    "http://[::ffff:0:127.0.0.1]:9/",
    "http://[64:ff9b::127.0.0.1]:9/",
    "http://[2002:7f00:1::]:9/",
    "http://[fec0::1]:9/",
    "http://0177.0.0.1:9/",
    "http://0x7f.1:9/",
    "http://127.1:9/",
  ])("refuses the address literal %s", async (url) => {
    const r = await withClient({}, (c) => c.fetch(url));
    expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    // the policy's refusal, not a connect that failed (ENETUNREACH would be PLB_UPSTREAM_FAILED)
    expect(!r.ok && r.message).toMatch(/public addresses only/);
  });

  it.each([
    ["::127.0.0.1", 6, /loopback/],
    ["::ffff:0:127.0.0.1", 6, /loopback/],
    ["64:ff9b::a00:1", 6, /private/],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", 6, /loopback/],
    ["fec0::1", 6, /site-local/],
    ["0177.0.0.1", 4, /loopback/],
  ])("refuses a name whose DNS answer is %s, before connecting", async (address, family, kind) => {
    const resolve = async () => [{ address, family }];
    const r = await withClient({ resolve }, (c) => c.fetch("http://odd-answer.test:9/"));
    expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(!r.ok && r.message).toMatch(kind);
  });

  it("refuses localhost, with or without its trailing dot, before any DNS (RFC 6761: loopback by definition)", async () => {
    const resolve = async () => {
      throw new Error("DNS must not be asked");
    };
    for (const host of ["localhost", "localhost.", "LOCALHOST.."]) {
      const r = await withClient({ resolve }, (c) => c.fetch(`http://${host}:${site.port}/hello`));
      expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
      expect(!r.ok && r.message).toMatch(/localhost is a loopback address/);
    }
  });

  it("refuses a name whose DNS answer is private (the connection uses the checked answer)", async () => {
    const resolve = async () => [{ address: "10.0.0.7", family: 4 }];
    const r = await withClient({ resolve, addressPolicy: fixtureIsPublic }, (c) => c.fetch("http://rebind.test/"));
    expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(!r.ok && r.message).toMatch(/rebind\.test resolves to 10\.0\.0\.7.*private/);
  });

  it("connects to the resolved address, keeping the host name in the Host header", async () => {
    const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    const r = await withClient({ resolve, addressPolicy: fixtureIsPublic }, (c) =>
      c.fetch(`http://fixture.test:${site.port}/hello`),
    );
    expect(r.ok && r.value.body.toString()).toBe(`hello fixture.test:${site.port}`);
  });

  it.each([
    ["/to-loopback", /127\.0\.0\.2 is a loopback/],
    ["/to-metadata", /169\.254\.169\.254 is a cloud metadata/],
    ["/to-private", /192\.168\.0\.10 is a private/],
  ])("refuses a redirect %s to a forbidden address", async (path, message) => {
    const r = await withClient({ addressPolicy: fixtureIsPublic }, (c) => c.fetch(`${site.url}${path}`));
    expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(!r.ok && r.message).toMatch(message);
  });

  it("fetches loopback with allowPrivateNetwork, sending the descriptive User-Agent", async () => {
    const r = await withClient({ allowPrivateNetwork: true }, (c) => c.fetch(`${site.url}/hello`));
    expect(r.ok && r.value.status).toBe(200);
    expect(userAgents.at(-1)).toMatch(/^plumbline-reference\/\d+\.\d+\.\d+( \(\+https?:\/\/.+\))?$/);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", /cloud metadata/],
    ["http://[fd00:ec2::254]/", /cloud metadata/],
    ["http://169.254.10.1/", /link-local/],
  ])("still refuses %s with allowPrivateNetwork (D-target-refusal)", async (url, message) => {
    const r = await withClient({ allowPrivateNetwork: true }, (c) => c.fetch(url));
    expect(r).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(!r.ok && r.message).toMatch(message);
  });

  it("still refuses a name resolving to cloud metadata, or a redirect there, with allowPrivateNetwork", async () => {
    const resolve = async () => [{ address: "169.254.169.254", family: 4 }];
    const named = await withClient({ allowPrivateNetwork: true, resolve }, (c) =>
      c.fetch("http://metadata.google.internal/computeMetadata/v1/"),
    );
    expect(named).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    const redirected = await withClient({ allowPrivateNetwork: true }, (c) => c.fetch(`${site.url}/to-metadata`));
    expect(redirected).toMatchObject({ ok: false, code: "PLB_TARGET_FORBIDDEN" });
    expect(!redirected.ok && redirected.message).toMatch(/169\.254\.169\.254 is a cloud metadata/);
  });

  it("sends the User-Agent a deployment names instead", async () => {
    const userAgent = "examplebot/1.0 (+https://example.com/bot)";
    await withClient({ allowPrivateNetwork: true, userAgent }, (c) => c.fetch(`${site.url}/hello`));
    expect(userAgents.at(-1)).toBe(userAgent);
  });
});

describe("http client: limits and decoding", () => {
  const open = { allowPrivateNetwork: true };

  it("follows redirects by hand and reports the final URL", async () => {
    const r = await withClient(open, (c) => c.fetch(`${site.url}/moved`));
    expect(r.ok && r.value).toMatchObject({ url: `${site.url}/hello`, status: 200, redirects: [`${site.url}/hello`] });
  });

  it("stops after the redirect limit", async () => {
    const r = await withClient({ ...open, maxRedirects: 3 }, (c) => c.fetch(`${site.url}/loop`));
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/more than 3/) });
  });

  it("hands a 3xx back when asked not to follow (the browser follows it)", async () => {
    const r = await withClient(open, (c) => c.fetch(`${site.url}/moved`, { followRedirects: false }));
    expect(r.ok && r.value).toMatchObject({ status: 301, headers: { location: "/hello" } });
  });

  it("returns a 404 answer as a response; the engines decide what it means", async () => {
    const r = await withClient(open, (c) => c.fetch(`${site.url}/missing`));
    expect(r.ok && r.value.status).toBe(404);
  });

  it("aborts a body over the size cap", async () => {
    const r = await withClient({ ...open, maxBytes: 5 * MiB }, (c) => c.fetch(`${site.url}/big`));
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/larger than/) });
  });

  it("caps decoded bytes, so a gzip bomb (64 MiB from 64 KiB) stops at the cap", async () => {
    const r = await withClient({ ...open, maxBytes: 5 * MiB }, (c) => c.fetch(`${site.url}/bomb`));
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/larger than/) });
  });

  it.each([
    ["/gzip", "gzipped text"],
    ["/br", "brotli text"],
  ])("decodes %s", async (path, text) => {
    const r = await withClient(open, (c) => c.fetch(`${site.url}${path}`));
    expect(r.ok && r.value.body.toString()).toBe(text);
  });

  it("gives up at the total timeout", async () => {
    // /slow answers after 3 s: a client that waited for it would have its body, so the failure is the timeout's
    const r = await withClient({ ...open, timeoutMs: 300 }, (c) => c.fetch(`${site.url}/slow`));
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/300 ms/) });
  });

  it("reports an unreachable target and a non-http URL as upstream failures", async () => {
    const closed = await serveSite({});
    await closed.close();
    const r = await withClient(open, (c) => c.fetch(`${closed.url}/`));
    expect(r).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED", message: expect.stringMatching(/ECONNREFUSED/) });
    const ftp = await withClient(open, (c) => c.fetch("ftp://example.org/file"));
    expect(ftp).toMatchObject({ ok: false, code: "PLB_UPSTREAM_FAILED" });
  });
});
