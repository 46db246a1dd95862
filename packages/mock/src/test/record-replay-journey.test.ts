// Issue 28's journey, end to end: a client session (search with a batch whose entry fails, crawl, a crawl paid with
// the Payment scheme, screenshot, sitemap, a deepcrawl polled to its zip, usage, a 402 and a 422) through the
// recording proxy to the reference serving a local fixture site; then the recording replayed by the server mock and
// by the MSW handlers, which give the client the recorded answers (status, body, content type, image and zip
// bytes) and each other identical ones, and the recording searched for every secret the session used.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadContract } from "@plumbline-kit/contract";
import { type FixtureSite, serveSite } from "@plumbline-kit/reference/test/fixture-site";
import { createPayingFetch } from "@plumbline-kit/tools/client/paying-fetch";
import { type RunningProxy, startProxy } from "@plumbline-kit/tools/proxy/start-proxy";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceProcess, startReferenceProcess } from "../../../../test-support/reference-process.ts";
import { createMockHandlers, type MockHandlers } from "../msw/index.ts";
import { type RunningMock, startMock } from "../start-mock.ts";

const KEY = "jk7c1e5a90b2d4f3e8-journey";
const BROKE = "bk04d9b1e6a7c2-journey";
const PAY_KEY = "journey-payment-test-key-5f2a9c";
const CREDITS = 1000;

interface Step {
  name: string;
  status: number;
  contentType: string;
  body: Buffer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The client's session against `base`: what each call answered. `pollMs` paces the deepcrawl polls (a real
 * deployment takes a while; a replay answers the recorded polls at once). `sent` collects the Payment credentials
 * the paying fetch sends, to look for them in the recording.
 */
async function journey(base: string, site: string, pollMs: number, sent: string[] = []): Promise<Step[]> {
  const steps: Step[] = [];
  const keep = async (name: string, res: Response) => {
    const body = Buffer.from(await res.arrayBuffer());
    steps.push({ name, status: res.status, contentType: res.headers.get("content-type") ?? "", body });
    return body;
  };
  const post = (path: string, body: unknown, key: string | null = KEY) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
  const get = (url: string, key: string | null = KEY) =>
    fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });

  await keep("crawl", await post("/crawl", { url: `${site}/a` }));
  await keep("search", await post("/search", { query: "lighthouse keepers", max_results: 3 }));
  await keep(
    "search batch with a failed entry",
    await post("/search", [{ query: "lighthouse" }, { query: "keepers", search_service: "wikipedia" }]),
  );
  await keep("screenshot", await post("/screenshot", { url: `${site}/` }));
  await keep("sitemap", await post("/sitemap", { url: `${site}/` }));
  const started = JSON.parse(
    (await keep("deepcrawl", await post("/deepcrawl", { url: `${site}/`, type: "sitemap" }))).toString(),
  ) as { taskId: string };
  let zipUrl: string | null = null;
  for (let poll = 1; poll <= 240 && !zipUrl; poll++) {
    const status = JSON.parse(
      (await keep(`deepcrawl poll ${poll}`, await get(`${base}/deepcrawl/status/${started.taskId}`))).toString(),
    ) as { status: string; zipUrl: string | null };
    if (status.status === "failed") throw new Error(`the deepcrawl failed: ${JSON.stringify(status)}`);
    zipUrl = status.zipUrl;
    if (!zipUrl) await sleep(pollMs);
  }
  if (!zipUrl) throw new Error("the deepcrawl did not finish within 240 polls");
  await keep("deepcrawl zip", await get(zipUrl, null));
  const paying = createPayingFetch({
    method: "test",
    key: PAY_KEY,
    fetch: (input, init) => {
      const auth = new Headers(init?.headers).get("authorization");
      if (auth) sent.push(auth);
      return fetch(input, init);
    },
  });
  await keep(
    "crawl paid with Payment",
    await paying(`${base}/crawl`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${site}/b` }),
    }),
  );
  await keep("402 on an empty account", await post("/search", { query: "lighthouse" }, BROKE));
  await keep("422 on an invalid body", await post("/search", { query: "", max_results: 500 }));
  await keep("usage", await get(`${base}/usage`));
  return steps;
}

const PAGE = (title: string, text: string, links = "") =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${text}</p>${links}</article></body></html>`;

let site: FixtureSite;
let failingWikipedia: FixtureSite;
let reference: ReferenceProcess;
let proxy: RunningProxy;
const dir = mkdtempSync(join(tmpdir(), "plumbline-journey-"));
const recording = join(dir, "session.har");
const paymentCredentials: string[] = [];
let recorded: Step[];

beforeAll(async () => {
  site = await serveSite({
    "/": {
      body: PAGE("Lighthouses", "Keepers of the lights along the coast.", '<a href="/a">A</a> <a href="/b">B</a>'),
    },
    "/a": { body: PAGE("The first lighthouse", "Lighthouse keepers kept the lamps burning through every storm.") },
    "/b": { body: PAGE("The second lighthouse", "A second tower, with keepers of its own.") },
    "/robots.txt": { type: "text/plain", body: "User-agent: *\nAllow: /\nSitemap: {{BASE}}/sitemap.xml\n" },
    "/sitemap.xml": {
      type: "application/xml",
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{{BASE}}/</loc></url><url><loc>{{BASE}}/a</loc></url><url><loc>{{BASE}}/b</loc></url></urlset>`,
    },
  });
  // the batch's second entry searches Wikipedia, which answers nothing useful here: that entry fails (502)
  failingWikipedia = await serveSite({});
  reference = await startReferenceProcess({
    keys: [`${KEY}:${CREDITS}`, `${BROKE}:0`],
    args: ["--rate-limit", "0", "--payment-test-key", PAY_KEY, "--wikipedia-url", failingWikipedia.url],
  });
  proxy = await startProxy({ upstream: reference.url, port: 0, record: recording, reportDir: null });
  recorded = await journey(proxy.url, site.url, 200, paymentCredentials);
  await proxy.close();
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await reference?.stop();
  await site?.close();
  await failingWikipedia?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The body as the client compares it: the origins the session was served from made one. */
function comparable(step: Step, origins: string[]): string {
  if (!/json|text/.test(step.contentType)) return step.body.toString("base64");
  let text = step.body.toString("utf8");
  for (const o of origins) text = text.split(o).join("ORIGIN");
  return text;
}

const REPLAYED = (s: Step) => !/^(402|422|usage)/.test(s.name);

describe("the session recorded through the proxy", () => {
  it("went as a client expects against the reference", () => {
    const by = (name: string) => recorded.find((s) => s.name === name) as Step;
    expect(recorded.filter((s) => !s.name.startsWith("deepcrawl poll")).map((s) => [s.name, s.status])).toEqual([
      ["crawl", 200],
      ["search", 200],
      ["search batch with a failed entry", 200],
      ["screenshot", 200],
      ["sitemap", 200],
      ["deepcrawl", 202],
      ["deepcrawl zip", 200],
      ["crawl paid with Payment", 200],
      ["402 on an empty account", 402],
      ["422 on an invalid body", 422],
      ["usage", 200],
    ]);
    const batch = JSON.parse(by("search batch with a failed entry").body.toString());
    expect(batch.summary).toMatchObject({ total: 2, successful: 1, failed: 1 });
    expect(by("screenshot").contentType).toMatch(/^image\/(png|jpeg|webp)/);
    expect(by("deepcrawl zip").body.subarray(0, 2).toString()).toBe("PK");
    // the reference keeps the contract: the only violation the proxy saw is the client's own, deliberate 422 body
    const report = proxy.report();
    expect(report.totals.exchanges).toBe(recorded.length + 1); // the paying fetch's first try is one more
    const violations = report.operations.flatMap((o) => o.rules.map((r) => [o.operationId, r.rule, r.side, r.count]));
    expect(violations).toEqual([["search", "request-schema", "request", 1]]);
  });

  it("holds no secret: neither API key, nor the Payment credentials, nor the payment key", () => {
    const text = readFileSync(recording, "utf8");
    expect(paymentCredentials.some((c) => c.startsWith("Payment "))).toBe(true);
    const secrets = [KEY, BROKE, PAY_KEY, ...paymentCredentials, ...paymentCredentials.map((c) => c.slice(8))];
    for (const secret of secrets) expect(text.includes(secret), secret.slice(0, 20)).toBe(false);
    expect(text).toContain("[REDACTED]");
  });
});

describe("the recording replayed", () => {
  let server: RunningMock;
  let msw: MockHandlers;
  let fromServer: Step[];
  let fromMsw: Step[];
  const mockOptions = () => ({
    keys: [
      { key: KEY, credits: CREDITS },
      { key: BROKE, credits: 0 },
    ],
    paymentTestKey: PAY_KEY,
    rateLimits: { perAccount: 0 },
    replay: recording,
  });

  beforeAll(async () => {
    const contract = await loadContract();
    server = await startMock({ ...mockOptions(), contract, port: 0 });
    fromServer = await journey(server.url, site.url, 0);
    msw = await createMockHandlers({ ...mockOptions(), contract });
    const intercept = setupServer(...msw.handlers);
    intercept.listen({ onUnhandledRequest: "bypass" });
    try {
      fromMsw = await journey(msw.baseUrl, site.url, 0);
    } finally {
      intercept.close();
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await msw?.close();
  });

  it("loads every recorded answer as valid; leaves 402s, usage and the refused request to the mock's own state", () => {
    const report = server.replay;
    expect(report?.invalid).toEqual([]);
    const skipped = report?.skipped.map((s) => `${s.method} ${s.path} ${s.status} ${s.reason}`) ?? [];
    expect(skipped).toEqual([
      "POST /crawl 402 mock-state", // the paying fetch's first, anonymous try
      "POST /search 402 mock-state",
      "POST /search 422 request-refused",
      "GET /usage 200 not-replayed",
    ]);
  });

  it("gives the client the recorded answers: status, content type and bytes (images and zips too)", () => {
    const origins = [proxy.url, reference.url, server.url];
    expect(fromServer.map((s) => s.name)).toEqual(recorded.map((s) => s.name));
    for (const [i, step] of fromServer.entries()) {
      if (!REPLAYED(step)) continue;
      const was = recorded[i];
      expect([step.name, step.status, step.contentType]).toEqual([was.name, was.status, was.contentType]);
      expect(comparable(step, origins), step.name).toBe(comparable(was, origins));
    }
  });

  it("answers the rest from its own state as the reference did: the 422's body, the 402's problem, the balance", () => {
    const pick = (steps: Step[], name: string) => steps.find((s) => s.name === name) as Step;
    const json = (s: Step) => JSON.parse(s.body.toString()) as Record<string, unknown>;
    expect(json(pick(fromServer, "422 on an invalid body"))).toEqual(json(pick(recorded, "422 on an invalid body")));
    const [mine, theirs] = [fromServer, recorded].map((s) => pick(s, "402 on an empty account"));
    expect([mine.status, mine.contentType]).toEqual([theirs.status, theirs.contentType]);
    expect({ code: json(mine).code, type: json(mine).type }).toEqual({
      code: json(theirs).code,
      type: json(theirs).type,
    });
    // charged the contract's price for every replayed call: the balance ends where the reference's did
    expect(json(pick(fromServer, "usage")).usage).toBe(json(pick(recorded, "usage")).usage);
    expect(json(pick(fromServer, "usage")).usage).toBeLessThan(CREDITS);
  });

  it("answers through the MSW handlers exactly as through the server", () => {
    const origins = [server.url, msw.baseUrl];
    expect(fromMsw.map((s) => [s.name, s.status, s.contentType])).toEqual(
      fromServer.map((s) => [s.name, s.status, s.contentType]),
    );
    for (const [i, step] of fromMsw.entries()) {
      if (step.status === 402) continue; // a challenge carries its own id and expiry
      expect(comparable(step, origins), step.name).toBe(comparable(fromServer[i], origins));
    }
  });
});
