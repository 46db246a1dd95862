// Hostile upstreams (issue 38: "bad input, hostile pages and hostile upstreams are bad input too"): a search
// upstream, a trending platform and an extraction model that answer 200 with a body that never ends, or that
// declare a body far past the cap. Each call answers 502 PLB_UPSTREAM_FAILED naming the cap, uncharged, and the
// stand-in sees its connection closed while it is still sending: the reference stops reading at the cap rather than
// holding the body (an endless body is read to the end by nothing, so the answer itself shows the read was bounded).
// The time caps are set far beyond the test's hang detector, so a 502 here is the size cap's, never a timeout's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EndlessUpstream, startEndlessUpstream } from "../../../../test-support/upstream-stand-ins.ts";
import { createModelExtractor, MODEL_MAX_ANSWER_BYTES } from "../engines/extract/model-extract.ts";
import { bytesCap } from "../engines/response-body.ts";
import { UPSTREAM_MAX_BYTES } from "../search/upstream/upstream.ts";
import { type RunningReference, startReference } from "../start-reference.ts";

const KEY = "hostile-upstream-key";
const dir = mkdtempSync(join(tmpdir(), "plumbline-hostile-upstream-"));
const LONG = 600_000;
let endlessJson: EndlessUpstream;
let endlessHtml: EndlessUpstream;
let declared: EndlessUpstream;
let ref: RunningReference;
let accountId: string;

beforeAll(async () => {
  endlessJson = await startEndlessUpstream({ contentType: "application/json", chunk: '{"results":[' });
  endlessHtml = await startEndlessUpstream({ contentType: "text/html", chunk: "<div>trending</div>" });
  // 1 GiB declared: refused on the header, before a body byte is kept
  declared = await startEndlessUpstream({ contentType: "application/json", declaredBytes: 1024 ** 3 });
  ref = await startReference({
    port: 0,
    dataDir: dir,
    allowPrivateNetwork: true,
    keys: [{ key: KEY, credits: 1000 }],
    rateLimits: { perAccount: 0 },
    searchUpstreams: { searxngUrl: endlessJson.url, wikipediaUrl: declared.url, timeoutMs: LONG },
    trending: { githubUrl: endlessHtml.url, hackernewsUrl: endlessJson.url },
  });
  accountId = (await ref.accounts.authenticate(KEY))?.id as string;
}, 60_000);
afterAll(async () => {
  await ref?.close();
  for (const s of [endlessJson, endlessHtml, declared]) await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const charges = async () => ({
  balance: await ref.accounts.balance(accountId),
  ledger: (await ref.accounts.ledger(accountId)).length,
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${ref.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
}

/** the stand-in's connections made by one call: every one closed by the reference while the body was coming */
async function closedEarly(s: EndlessUpstream, from: number) {
  const made = s.connections.slice(from);
  expect(made.length).toBeGreaterThan(0);
  expect(await Promise.all(made.map((c) => c.closedEarly))).toEqual(made.map(() => true));
  return made;
}

describe("a search upstream that answers without end", () => {
  it("/search through SearXNG: 502 naming the cap, uncharged, the connection closed at the cap", async () => {
    const before = await charges();
    const from = endlessJson.connections.length;
    const r = await post("/search", { query: "endless", search_service: "bing" });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({
      code: "PLB_UPSTREAM_FAILED",
      message: `The SearXNG upstream answered more than ${bytesCap(UPSTREAM_MAX_BYTES)}, this service's cap`,
    });
    expect(await charges()).toEqual(before);
    const [c] = await closedEarly(endlessJson, from);
    // the bytes sent before the hang-up: the cap plus what the socket buffers held, nowhere near an endless body
    expect(c.bytes).toBeGreaterThan(UPSTREAM_MAX_BYTES);
    expect(c.bytes).toBeLessThan(UPSTREAM_MAX_BYTES * 4);
  });

  it("/search through Wikipedia with a Content-Length past the cap: refused on the header", async () => {
    const before = await charges();
    const from = declared.connections.length;
    const r = await post("/search", { query: "declared", search_service: "wikipedia" });
    expect(r.status).toBe(502);
    expect(r.body.message).toBe(
      `The Wikipedia upstream answered more than ${bytesCap(UPSTREAM_MAX_BYTES)}, this service's cap`,
    );
    expect(await charges()).toEqual(before);
    await closedEarly(declared, from);
  });
});

describe("a trending platform that answers without end", () => {
  it("github: 502 naming the cap, uncharged, the connection closed", async () => {
    const before = await charges();
    const from = endlessHtml.connections.length;
    const r = await post("/trending", { search_service: "github" });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe("PLB_UPSTREAM_FAILED");
    expect(r.body.message).toMatch(/^GitHub trending could not be read: .*larger than 5242880 bytes/);
    expect(await charges()).toEqual(before);
    await closedEarly(endlessHtml, from);
  });

  it("hackernews: 502 naming the cap, uncharged, the connection closed", async () => {
    const before = await charges();
    const from = endlessJson.connections.length;
    const r = await post("/trending", { search_service: "hackernews" });
    expect(r.status).toBe(502);
    expect(r.body.message).toMatch(/^Hacker News top stories could not be read: .*larger than 5242880 bytes/);
    expect(await charges()).toEqual(before);
    await closedEarly(endlessJson, from);
  });
});

describe("an extraction model that answers without end", () => {
  it("is a failure naming the cap, with its connection closed", async () => {
    const model = await startEndlessUpstream({ contentType: "application/json", chunk: '{"choices":[' });
    try {
      const extract = createModelExtractor({ url: model.url, model: "m", timeoutMs: LONG });
      const r = await extract({ url: "https://example.com/", title: "t", text: "x" }, undefined, {}, () => null);
      expect(r).toEqual({
        ok: false,
        code: "PLB_UPSTREAM_FAILED",
        message: `The extraction model answered more than ${bytesCap(MODEL_MAX_ANSWER_BYTES)}, this service's cap`,
      });
      await closedEarly(model, 0);
    } finally {
      await model.close();
    }
  });
});
