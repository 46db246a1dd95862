// `--record FILE`: HAR 1.2 per the recording conventions (docs/proxy.md): no secret anywhere in the file, bodies
// decoded with their encoding noted, binary answers base64, a snapshot while recording goes on, and every one of
// 1,000 concurrent exchanges in the file once the proxy stops.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlumblineEntry, PlumblineHar } from "../har/har-entry.ts";
import { startProxy } from "../start-proxy.ts";
import { startUpstreamDouble, type UpstreamDouble } from "./upstream-double.ts";

const KEY = "record-key-5e3f9a0c7d";
const SECRETS = {
  key: KEY,
  cookie: "cookie-secret-0f9e8d7c",
  query: "query-secret-1a2b3c4d",
  queryToken: "token-secret-9z8y7x6w",
  body: "body-secret-5k4j3h2g",
  xApiKey: "x-api-key-secret-77",
  payment: "payment-credential-secret-abcdef",
};

let contract: Contract;
let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  contract = await loadContract();
  mock = await startMock({ port: 0, keys: [{ key: KEY, credits: 1000 }], contract });
  dir = mkdtempSync(join(tmpdir(), "plumbline-proxy-record-"));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${KEY}` };
const json = { "content-type": "application/json" };
const entryOf = (har: PlumblineHar, path: string) =>
  har.log.entries.find((e) => new URL(e.request.url).pathname === path) as PlumblineEntry;

describe("a recording", () => {
  let upstream: UpstreamDouble;
  let har: PlumblineHar;
  let text: string;
  let snapshot: PlumblineHar;
  let screenshotBytes: Buffer;
  let gzipped: { status: number; body: unknown };
  const file = () => join(dir, "session.har");

  beforeAll(async () => {
    upstream = await startUpstreamDouble(mock.url, { gzip: true });
    const proxy = await startProxy({ upstream: upstream.url, port: 0, record: file(), reportDir: null, contract });
    const base = proxy.url;
    const search = await fetch(`${base}/search`, {
      method: "POST",
      headers: { ...auth, ...json, cookie: `session=${SECRETS.cookie}`, "accept-encoding": "gzip" },
      body: JSON.stringify({ query: "recorded search" }),
    });
    gzipped = { status: search.status, body: await search.json() };
    const shot = await fetch(`${base}/screenshot`, {
      method: "POST",
      headers: { ...auth, ...json, "x-api-key": SECRETS.xApiKey },
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    screenshotBytes = Buffer.from(await shot.arrayBuffer());
    await fetch(`${base}/usage?api_key=${SECRETS.query}&access_token=${SECRETS.queryToken}`, { headers: auth });
    await fetch(`${base}/crawl`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ url: "https://example.com/", api_key: SECRETS.body }),
    });
    const snap = await fetch(`${base}/__proxy/recording`, { method: "POST" });
    expect(snap.status).toBe(200);
    snapshot = (await snap.json()) as PlumblineHar;
    await fetch(`${base}/search`, {
      method: "POST",
      headers: { authorization: `Payment ${SECRETS.payment}`, ...json },
      body: JSON.stringify({ query: "paid" }),
    });
    await proxy.close();
    text = readFileSync(file(), "utf8");
    har = JSON.parse(text) as PlumblineHar;
  });
  afterAll(() => upstream.close());

  it("is HAR 1.2 from plumbline, one entry per exchange in arrival order", () => {
    expect(har.log.version).toBe("1.2");
    expect(har.log.creator.name).toBe("plumbline");
    expect(har.log.entries.map((e) => e._plumbline.id)).toEqual([1, 2, 3, 4, 5]);
    expect(
      har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`),
    ).toEqual(["POST /search 200", "POST /screenshot 200", "GET /usage 200", "POST /crawl 422", "POST /search 402"]);
    for (const e of har.log.entries) {
      expect(new URL(e.request.url).origin).toBe(upstream.url);
      expect(e.time).toBeCloseTo((e.timings.send ?? 0) + e.timings.wait + e.timings.receive, 2);
      expect(e._plumbline.servedBy).toBe("upstream");
    }
    expect(existsSync(`${file()}.partial`)).toBe(false);
  });

  it("holds no secret anywhere, and says what it redacted", () => {
    for (const [what, secret] of Object.entries(SECRETS)) expect(text.includes(secret), what).toBe(false);
    expect(entryOf(har, "/usage")._plumbline.redacted).toEqual([
      "request query api_key",
      "request query access_token",
      "request header authorization",
    ]);
    expect(entryOf(har, "/usage").request.queryString).toContainEqual({ name: "api_key", value: "[REDACTED]" });
    expect(entryOf(har, "/crawl")._plumbline.redacted).toContain("request body /api_key");
    expect(JSON.parse(entryOf(har, "/crawl").request.postData?.text ?? "")).toEqual({
      url: "https://example.com/",
      api_key: "[REDACTED]",
    });
    const first = har.log.entries[0].request.headers;
    expect(first).toContainEqual({ name: "cookie", value: "[REDACTED]" });
    expect(har.log.entries[4].request.headers).toContainEqual({ name: "authorization", value: "[REDACTED]" });
  });

  it("stores a gzipped answer decoded, with its encoding noted and the wire size", () => {
    const e = har.log.entries[0];
    expect(e.response.headers).toContainEqual({ name: "content-encoding", value: "gzip" });
    expect(e.response.content.encoding).toBeUndefined();
    expect(JSON.parse(e.response.content.text ?? "")).toEqual(gzipped.body);
    expect(e.response.content.size).toBe(Buffer.byteLength(e.response.content.text ?? ""));
    expect(e.response.bodySize).toBeLessThan(e.response.content.size);
    expect(e.response.content.compression).toBe(e.response.content.size - e.response.bodySize);
  });

  it("stores a screenshot as base64, the bytes the client got", () => {
    const c = entryOf(har, "/screenshot").response.content;
    expect(c).toMatchObject({ mimeType: "image/png", encoding: "base64", size: screenshotBytes.length });
    expect(Buffer.from(c.text ?? "", "base64").equals(screenshotBytes)).toBe(true);
    expect(screenshotBytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  });

  it("answers a snapshot while recording goes on", () => {
    expect(snapshot.log.entries.map((e) => e._plumbline.id)).toEqual([1, 2, 3, 4]);
    expect(snapshot.log.entries[0]).toEqual(har.log.entries[0]);
  });

  it("keeps what a killed run left in FILE.partial, and a snapshot after close is the file", async () => {
    const file = join(dir, "again.har");
    writeFileSync(`${file}.partial`, '{"left":"by a killed run"}\n');
    const warnings: string[] = [];
    const proxy = await startProxy({
      upstream: mock.url,
      port: 0,
      record: file,
      reportDir: null,
      contract,
      onWarning: (m) => warnings.push(m),
    });
    await (await fetch(`${proxy.url}/health`)).arrayBuffer();
    await proxy.close();
    expect(warnings).toHaveLength(1);
    const kept = warnings[0].match(/moved to (\S+)$/)?.[1] as string;
    expect(readFileSync(kept, "utf8")).toBe('{"left":"by a killed run"}\n');
    expect((await proxy.recording())?.log.entries).toHaveLength(1);
  });

  it("--keep-header records a credential header as sent", async () => {
    const kept = join(dir, "kept.har");
    const proxy = await startProxy({
      upstream: mock.url,
      port: 0,
      record: kept,
      keepHeaders: ["X-Api-Key"],
      reportDir: null,
      contract,
    });
    await fetch(`${proxy.url}/health`, { headers: { "x-api-key": SECRETS.xApiKey, ...auth } });
    await proxy.close();
    const entry = (JSON.parse(readFileSync(kept, "utf8")) as PlumblineHar).log.entries[0];
    expect(entry.request.headers).toContainEqual({ name: "x-api-key", value: SECRETS.xApiKey });
    expect(entry.request.headers).toContainEqual({ name: "authorization", value: "[REDACTED]" });
  });
});

describe("under 1,000 concurrent requests", () => {
  it("every exchange is in the recording, in arrival order", async () => {
    const file = join(dir, "concurrent.har");
    const proxy = await startProxy({ upstream: mock.url, port: 0, record: file, reportDir: null, contract });
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${proxy.url}/health`, { headers: { "x-request-id": `c-${i}` } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    await proxy.close();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const har = JSON.parse(readFileSync(file, "utf8")) as PlumblineHar;
    expect(har.log.entries).toHaveLength(1000);
    expect(har.log.entries.map((e) => e._plumbline.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    const ids = new Set(har.log.entries.map((e) => e.request.headers.find((h) => h.name === "x-request-id")?.value));
    expect(ids.size).toBe(1000);
    expect(har.log.entries.every((e) => e.response.status === 200)).toBe(true);
  });
});
