// Replay (issue 28): the mock answers a request that matches a recorded one with the recorded answer, after its own
// authentication, rate limits, validation and credits, and judges every recorded answer against the spec when it
// loads the recording. The recordings are HAR files written from Exchange-shaped data (har-writer.ts), captured
// from a mock with another seed, so a replayed answer is told from the replaying mock's own by its content (and by
// the journal's replayedFrom).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Contract, loadContract } from "@plumbline-kit/contract";
import { addAmounts } from "@plumbline-kit/contract/payment-amount";
import { createPayingFetch } from "@plumbline-kit/tools/client/paying-fetch";
import type { Exchange } from "@plumbline-kit/tools/proxy/exchange";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, matchesRecorded } from "../replay/canonical-json.ts";
import { type HarDocument, ReplayFileError } from "../replay/har-file.ts";
import { type RunningMock, startMock } from "../start-mock.ts";
import { capture, editJson, harOf } from "./har-writer.ts";
import { violationsOf } from "./harness.ts";

const START = Date.parse("2026-03-01T09:00:00Z");
const dir = mkdtempSync(join(tmpdir(), "plumbline-replay-"));
let contract: Contract;
let source: RunningMock;
/** exchanges captured from the source mock, by name */
const rec: Record<string, Exchange> = {};
let zipBytes: Buffer;
let shotBytes: Buffer;

type Json = Record<string, unknown>;
const titles = (ex: { body: unknown }) =>
  ((ex.body as { results: Array<{ title: string }> }).results ?? []).map((r) => r.title);

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  raw: Buffer;
}

/** A client of a mock under test; every answer is checked against the spec unless it is a served invalid one. */
function client(m: () => RunningMock, violations: string[] = []) {
  return async (
    method: string,
    path: string,
    o: { body?: unknown; key?: string | null; headers?: Record<string, string>; raw?: string; url?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? "k" : o.key;
    if (key) headers.authorization = `Bearer ${key}`;
    const payload = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    if (payload !== undefined) headers["content-type"] ??= "application/json";
    const res = await fetch(o.url ?? `${m().url}${path}`, { method, headers, body: payload });
    const raw = Buffer.from(await res.arrayBuffer());
    const body = res.headers.get("content-type")?.includes("json") ? JSON.parse(raw.toString("utf8")) : raw;
    const answer = { status: res.status, headers: res.headers, body, raw };
    violations.push(...violationsOf(contract, method, path, answer));
    return answer;
  };
}

function writeHar(name: string, har: HarDocument | string): string {
  const file = join(dir, name);
  writeFileSync(file, typeof har === "string" ? har : JSON.stringify(har));
  return file;
}

beforeAll(async () => {
  contract = await loadContract();
  source = await startMock({
    port: 0,
    contract,
    seed: 1,
    clock: "manual",
    startTime: START,
    keys: [
      { key: "rec", credits: 100_000 },
      { key: "rec-broke", credits: 0 },
    ],
    rateLimits: { perAccount: 0 },
  });
  const c = capture(source.url);
  const post = (path: string, body: unknown, key: string | null = "rec") => c.call("POST", path, { body, key });
  rec.search = await post("/search", { query: "alpha", max_results: 3 });
  rec.searchSecond = editJson(rec.search, (b) => ({
    ...b,
    results: (b.results as Json[]).map((r, i) => ({ ...r, title: `second answer ${i}` })),
  }));
  rec.searchThird = editJson(rec.search, (b) => ({
    ...b,
    results: (b.results as Json[]).map((r, i) => ({ ...r, title: `third answer ${i}` })),
  }));
  rec.searchFirst = editJson(rec.search, (b) => ({
    ...b,
    results: (b.results as Json[]).map((r, i) => ({ ...r, title: `first answer ${i}` })),
  }));
  rec.surcharged = await post("/search", { query: "costly", crawl_results: 2 });
  rec.batch = await post("/search", [{ query: "b one" }, { query: "__fail_502__" }, { query: "b three" }]);
  rec.crawl404 = await post("/crawl", { url: "https://example.com/gone/status/404" });
  rec.crawl502 = await post("/crawl", { url: "https://example.com/down/status/500" });
  rec.crawlBatch = await post("/crawl", [{ url: "https://example.com/a" }, { url: "https://example.com/b" }]);
  rec.shot = await post("/screenshot", { url: "https://example.com/shot" });
  shotBytes = rec.shot.response?.body as Buffer;
  rec.usage = await c.call("GET", "/usage", { key: "rec" });
  rec.broke = await post("/search", { query: "no credits" }, "rec-broke");
  rec.badKey = await post("/search", { query: "bad key" }, "nobody");
  rec.invalid = await post("/search", { query: "" });
  rec.deepcrawl = await post("/deepcrawl", { url: "https://docs.example.com/", type: "all" });
  const taskId = JSON.parse((rec.deepcrawl.response as { body: Buffer }).body.toString()).taskId as string;
  rec.poll1 = await c.call("GET", `/deepcrawl/status/${taskId}`, { key: "rec" });
  source.admin.advanceClock(2500);
  rec.poll2 = await c.call("GET", `/deepcrawl/status/${taskId}`, { key: "rec" });
  source.admin.advanceClock(10_000);
  rec.poll3 = await c.call("GET", `/deepcrawl/status/${taskId}`, { key: "rec" });
  const zipUrl = new URL(JSON.parse((rec.poll3.response as { body: Buffer }).body.toString()).zipUrl);
  rec.zip = await c.call("GET", `${zipUrl.pathname}${zipUrl.search}`, { key: null });
  zipBytes = rec.zip.response?.body as Buffer;
}, 60_000);

afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("canonical JSON", () => {
  it("ignores key order and whitespace, keeps array order, keeps __proto__ a key", () => {
    expect(canonicalJson(JSON.parse('{ "b": 1, "a": {"y": [1, 2], "x": null} }'))).toBe(
      canonicalJson({ a: { x: null, y: [1, 2] }, b: 1 }),
    );
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(JSON.parse('{"__proto__": {"polluted": true}}'))).toBe('{"__proto__":{"polluted":true}}');
    expect(canonicalJson({ a: 1.0, b: "x" })).toBe('{"a":1,"b":"x"}');
  });

  it("lets a recorded [REDACTED] stand for any value, and nothing else", () => {
    expect(matchesRecorded({ q: "x", token: "[REDACTED]" }, { token: "abc", q: "x" })).toBe(true);
    expect(matchesRecorded({ q: "x", token: "[REDACTED]" }, { q: "x" })).toBe(false);
    expect(matchesRecorded({ q: "x" }, { q: "y" })).toBe(false);
    expect(matchesRecorded([{ a: 1 }], [{ a: 1 }, { a: 2 }])).toBe(false);
  });
});

describe("replaying a recording", () => {
  let mock: RunningMock;
  const violations: string[] = [];
  const call = client(() => mock, violations);
  const balance = async (key = "k") => ((await call("GET", "/usage", { key })).body as { usage: number }).usage;

  beforeAll(async () => {
    const har = harOf([
      rec.searchFirst,
      rec.searchSecond,
      rec.searchThird,
      rec.surcharged,
      rec.batch,
      rec.crawl404,
      rec.crawl502,
      rec.crawlBatch,
      rec.shot,
      rec.usage,
      rec.broke,
      rec.badKey,
      rec.invalid,
      rec.deepcrawl,
      rec.poll1,
      rec.poll2,
      rec.poll3,
      rec.zip,
    ]);
    mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      clock: "manual",
      startTime: START,
      keys: [
        { key: "k", credits: 1000 },
        { key: "broke", credits: 0 },
      ],
      rateLimits: { perAccount: 0 },
      replay: writeHar("session.har", har),
    });
  });
  afterAll(async () => {
    await mock?.close();
    expect(violations).toEqual([]);
  });

  it("reports what it loaded: answers served, state and refused requests skipped, nothing invalid", () => {
    const r = mock.replay;
    expect(r).not.toBeNull();
    expect(r?.entries).toBe(18);
    expect(r?.invalid).toEqual([]);
    expect(r?.skipped.map((s) => [s.entry, s.reason])).toEqual([
      [9, "not-replayed"], // usage is the mock's own balance
      [10, "mock-state"], // 402
      [11, "mock-state"], // 401
      [12, "request-refused"], // the mock's own 422 comes first
    ]);
    expect(r?.answers).toBe(14);
  });

  it("answers a matching request with its recorded answers in order, then the last again; reset starts over", async () => {
    const seen: string[] = [];
    for (let i = 0; i < 5; i++)
      seen.push(titles(await call("POST", "/search", { body: { query: "alpha", max_results: 3 } }))[0]);
    expect(seen).toEqual(["first answer 0", "second answer 0", "third answer 0", "third answer 0", "third answer 0"]);
    await call("POST", "/__mock/reset", { key: null });
    expect(titles(await call("POST", "/search", { body: { max_results: 3, query: "alpha" } }))[0]).toBe(
      "first answer 0",
    );
  });

  it("matches the body as canonical JSON: key order and whitespace do not matter, values do", async () => {
    await call("POST", "/__mock/reset", { key: null });
    const spaced = await call("POST", "/search", { raw: '{\n  "max_results" : 3,\n  "query":"alpha"\n}' });
    expect(titles(spaced)[0]).toBe("first answer 0");
    const other = await call("POST", "/search", { body: { query: "alpha", max_results: 4 } });
    expect(other.status).toBe(200);
    expect(titles(other)).toHaveLength(4); // the mock's own answer
    expect(titles(other)).not.toContain("second answer 0");
    const journal = mock.admin.journal.list({ operationId: "search" }).slice(-2);
    expect(journal.map((e) => e.replayedFrom)).toEqual([`${join(dir, "session.har")}#0`, undefined]);
  });

  it("sends the recorded status, headers and bytes, with its own request id and rate-limit headers", async () => {
    const shot = await call("POST", "/screenshot", { body: { url: "https://example.com/shot" } });
    expect(shot.status).toBe(200);
    expect(shot.headers.get("content-type")).toBe("image/png");
    expect(Buffer.compare(shot.raw, shotBytes)).toBe(0);
    expect(shot.headers.get("x-request-id")).not.toBe(headerOf(rec.shot, "x-request-id"));
    expect(shot.headers.get("content-length")).toBe(String(shotBytes.length));
  });

  it("charges the contract's price for a replayed call, surcharges included, and nothing for what the contract does not charge", async () => {
    await call("POST", "/__mock/reset", { key: null });
    const price = (op: string, body: unknown) => contract.prices.requestCredits(op, body);
    let before = await balance();
    await call("POST", "/search", { body: { query: "costly", crawl_results: 2 } });
    expect(mock.admin.journal.list().at(-1)?.replayedFrom).toMatch(/#3$/);
    expect(before - (await balance())).toBe(price("search", { query: "costly", crawl_results: 2 }));

    // a batch with a failed entry: the two that succeeded, at the contract's price, whatever `cost` says
    before = await balance();
    const batch = await call("POST", "/search", {
      body: [{ query: "b one" }, { query: "__fail_502__" }, { query: "b three" }],
    });
    expect((batch.body as { summary: Json }).summary).toMatchObject({ total: 3, successful: 2, failed: 1 });
    expect(before - (await balance())).toBe(2 * price("search", { query: "b one" }));

    before = await balance();
    expect((await call("POST", "/crawl", { body: { url: "https://example.com/gone/status/404" } })).status).toBe(404);
    expect(before - (await balance())).toBe(price("crawl", {})); // a confirmed 404 is charged (D-charging)
    before = await balance();
    expect((await call("POST", "/crawl", { body: { url: "https://example.com/down/status/500" } })).status).toBe(502);
    expect(await balance()).toBe(before); // a failure is not
    before = await balance();
    const crawls = await call("POST", "/crawl", {
      body: [{ url: "https://example.com/a" }, { url: "https://example.com/b" }],
    });
    expect(crawls.body).toHaveLength(2);
    expect(before - (await balance())).toBe(2 * price("crawl", {}));
  });

  it("stays stateful: a bad key gets 401, an empty account 402 (and the recording waits), an invalid body 422", async () => {
    await call("POST", "/__mock/reset", { key: null });
    const bad = await call("POST", "/search", { body: { query: "alpha", max_results: 3 }, key: "nobody" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const broke = await call("POST", "/search", { body: { query: "alpha", max_results: 3 }, key: "broke" });
    expect(broke.status).toBe(402);
    expect((broke.body as Json).code).toBe("PLB_INSUFFICIENT_CREDITS");
    // neither consumed the recorded answer: the next paying call gets the first one
    expect(titles(await call("POST", "/search", { body: { query: "alpha", max_results: 3 } }))[0]).toBe(
      "first answer 0",
    );
    const invalid = await call("POST", "/search", { body: { query: "" } });
    expect(invalid.status).toBe(422);
    expect((invalid.body as Json).code).toBe("PLB_VALIDATION_FAILED");
    expect(mock.admin.journal.list().at(-1)?.replayedFrom).toBeUndefined();
  });

  it("replays a deepcrawl coherently: the recorded task id, its polls in order, the last one repeated, the zip from the mock", async () => {
    await call("POST", "/__mock/reset", { key: null });
    const before = await balance();
    const started = await call("POST", "/deepcrawl", { body: { url: "https://docs.example.com/", type: "all" } });
    expect(started.status).toBe(202);
    const { taskId } = started.body as { taskId: string };
    expect(started.raw.toString()).toBe((rec.deepcrawl.response as { body: Buffer }).body.toString());
    expect(before - (await balance())).toBe(contract.prices.requestCredits("deepcrawl", {}));
    const states: string[] = [];
    let zipUrl = "";
    for (let i = 0; i < 5; i++) {
      const poll = await call("GET", `/deepcrawl/status/${taskId}`);
      states.push((poll.body as { status: string }).status);
      zipUrl = (poll.body as { zipUrl: string | null }).zipUrl ?? zipUrl;
    }
    const recorded = [rec.poll1, rec.poll2, rec.poll3].map((p) => JSON.parse(String(p.response?.body)).status);
    expect(recorded).toEqual(["queued", "processing", "completed"]);
    expect(states).toEqual([...recorded, "completed", "completed"]);
    // recorded on the source mock; pointed at this mock, where the recorded download is served
    expect(zipUrl.startsWith(`${mock.url}/deepcrawl/files/${taskId}.zip?`)).toBe(true);
    const zip = await call("GET", "", { url: zipUrl, key: null });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(Buffer.compare(zip.raw, zipBytes)).toBe(0);
  });

  it("lists each recorded answer with how often it was served, and the requests nothing matched", async () => {
    await call("POST", "/search", { body: { query: "nothing recorded" } });
    const view = (await call("GET", "/__mock/replay", { key: null })).body as {
      match: string;
      answers: Array<{ entry: number; served: number }>;
      unmatched: Array<{ method: string; url: string }>;
    };
    expect(view.match).toBe("exact");
    expect(view.answers).toHaveLength(14);
    expect(view.answers.find((a) => a.entry === 13)?.served).toBe(1); // the deepcrawl start
    expect(view.answers.find((a) => a.entry === 16)?.served).toBe(3); // the completed poll, repeated
    expect(view.unmatched).toEqual([{ method: "POST", url: "/search", operationId: "search" }]);
  });
});

describe("looser matching", () => {
  it("ignore-body matches method, path and query; path matches method and path; exact needs the query too", async () => {
    const searchOn = (query: string): Exchange => ({
      ...rec.searchFirst,
      request: { ...rec.searchFirst.request, path: `/search${query}` },
    });
    const har = harOf([searchOn("?region=eu")]);
    const answers: Record<string, string[]> = {};
    for (const match of ["exact", "ignore-body", "path"] as const) {
      const mock = await startMock({
        port: 0,
        contract,
        seed: 99,
        rateLimits: { perAccount: 0 },
        keys: [{ key: "k", credits: 100 }],
        replay: har,
        replayMatch: match,
      });
      const call = client(() => mock);
      try {
        answers[match] = [
          titles(await call("POST", "/search?region=eu", { body: { query: "alpha", max_results: 3 } }))[0],
          titles(await call("POST", "/search?region=eu", { body: { query: "other" } }))[0],
          titles(await call("POST", "/search?region=us", { body: { query: "other" } }))[0],
          titles(await call("POST", "/search", { body: { query: "alpha", max_results: 3 } }))[0],
        ];
      } finally {
        await mock.close();
      }
    }
    const R = "first answer 0";
    expect(answers.exact.map((t) => t === R)).toEqual([true, false, false, false]);
    expect(answers["ignore-body"].map((t) => t === R)).toEqual([true, true, false, false]);
    expect(answers.path.map((t) => t === R)).toEqual([true, true, true, true]);
  });

  it("matches a redacted query value or body field whatever the client sends there", async () => {
    const withToken: Exchange = {
      ...rec.searchFirst,
      request: { ...rec.searchFirst.request, path: "/search?token=s3cret" },
    };
    const har = harOf([withToken]);
    expect(JSON.stringify(har)).not.toContain("s3cret");
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 100 }],
      replay: har,
    });
    const call = client(() => mock);
    try {
      expect(titles(await call("POST", "/search?token=other", { body: { query: "alpha", max_results: 3 } }))[0]).toBe(
        "first answer 0",
      );
      expect(titles(await call("POST", "/search", { body: { query: "alpha", max_results: 3 } }))[0]).not.toBe(
        "first answer 0",
      );
    } finally {
      await mock.close();
    }
  });

  it("leaves a request steered with Prefer (example=, dynamic=, fail-entries=) to the mock", async () => {
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 100 }],
      replay: harOf([rec.batch]),
    });
    const call = client(() => mock);
    try {
      const body = [{ query: "b one" }, { query: "__fail_502__" }, { query: "b three" }];
      const steered = await call("POST", "/search", { body, headers: { prefer: 'fail-entries="0"' } });
      expect((steered.body as { summary: Json }).summary).toMatchObject({ successful: 1, failed: 2 });
      const replayed = await call("POST", "/search", { body });
      expect((replayed.body as { summary: Json }).summary).toMatchObject({ successful: 2, failed: 1 });
    } finally {
      await mock.close();
    }
  });
});

describe("paying with the Payment scheme while replaying", () => {
  it("captures the contract's price of what the recorded answer charges: a whole call, a batch's successful entries", async () => {
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      paymentTestKey: "replay-pay-key",
      replay: harOf([rec.searchFirst, rec.batch]),
    });
    const paying = createPayingFetch({ method: "test", key: "replay-pay-key" });
    const pay = (body: unknown) =>
      paying(`${mock.url}/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    try {
      const one = await pay({ query: "alpha", max_results: 3 });
      expect(one.status).toBe(200);
      expect(one.headers.get("payment-receipt")).toMatch(/^[\w-]+$/); // the mock's own receipt, not a recorded one
      expect(titles({ body: await one.json() })[0]).toBe("first answer 0");
      const batch = await pay([{ query: "b one" }, { query: "__fail_502__" }, { query: "b three" }]);
      expect(((await batch.json()) as { summary: Json }).summary).toMatchObject({ successful: 2, failed: 1 });
      const payments = await mock.admin.payments.list();
      const price = contract.prices.get("search")?.price as string;
      expect(payments.map((p) => [p.amount, p.capturedAmount])).toEqual([
        [addAmounts([price, price, price]), addAmounts([price, price])], // newest first: three paid for, two kept
        [price, price],
      ]);
      expect(
        mock.admin.journal
          .list()
          .filter((e) => e.replayedFrom)
          .map((e) => e.payment?.status),
      ).toEqual([payments[1].status, payments[0].status]);
    } finally {
      await mock.close();
    }
  });
});

describe("recorded errors and short balances", () => {
  it("replays a recorded 422 for a body the mock accepts (the service was stricter), uncharged", async () => {
    const stricter: Exchange = {
      ...rec.invalid,
      request: { ...rec.invalid.request, body: Buffer.from(JSON.stringify({ query: "strict service" })) },
    };
    const mock = await startMock({
      port: 0,
      contract,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 10 }],
      replay: harOf([stricter]),
    });
    const call = client(() => mock);
    try {
      expect(mock.replay?.skipped).toEqual([]);
      const answer = await call("POST", "/search", { body: { query: "strict service" } });
      expect(answer.status).toBe(422);
      expect(answer.raw.equals(rec.invalid.response?.body as Buffer)).toBe(true);
      expect(((await call("GET", "/usage")).body as { usage: number }).usage).toBe(10);
    } finally {
      await mock.close();
    }
  });

  it("answers a recorded batch the balance cannot cover whole itself: 402 entries, as without a recording", async () => {
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 1 }],
      replay: harOf([rec.batch]),
    });
    const call = client(() => mock);
    try {
      const body = [{ query: "b one" }, { query: "__fail_502__" }, { query: "b three" }];
      const answer = await call("POST", "/search", { body });
      const results = (answer.body as { results: Array<{ success: boolean; error?: { statusCode: number } }> }).results;
      expect(results.map((r) => r.success || r.error?.statusCode)).toEqual([true, 402, 402]); // holds come before runs
      expect(mock.admin.journal.list().at(-1)?.replayedFrom).toBeUndefined();
      mock.admin.setBalance("k", 10);
      expect(((await call("POST", "/search", { body })).body as { summary: Json }).summary).toMatchObject({
        successful: 2,
      });
      expect(mock.admin.journal.list().at(-1)?.replayedFrom).toMatch(/#0$/); // the recording had waited
    } finally {
      await mock.close();
    }
  });
});

describe("recordings of other shapes", () => {
  it("serves a recording of an upstream with a base path at the mock's root, its zipUrl pointed at the mock", async () => {
    const base = "http://upstream.test/v1";
    const under = (ex: Exchange): Exchange => {
      const res = ex.response as NonNullable<Exchange["response"]>;
      return {
        ...ex,
        request: { ...ex.request, path: `/v1${ex.request.path}` },
        response: { ...res, body: Buffer.from(res.body.toString("latin1").split(source.url).join(base), "latin1") },
      };
    };
    const guessed = harOf([rec.searchFirst, rec.poll3, rec.zip].map(under), "http://upstream.test");
    expect(guessed.log.entries.map((e) => new URL(e.request.url).pathname.split("/")[1])).toEqual(["v1", "v1", "v1"]);
    // as plumbline's recorder writes it: the base URL noted per entry, so nothing is guessed
    const noted = structuredClone(guessed);
    for (const e of noted.log.entries) e._plumbline.upstream = base;
    for (const har of [guessed, noted]) {
      const mock = await startMock({
        port: 0,
        contract,
        seed: 99,
        rateLimits: { perAccount: 0 },
        keys: [{ key: "k", credits: 10 }],
        replay: har,
      });
      const call = client(() => mock);
      try {
        expect(mock.replay?.answers).toBe(3);
        expect(titles(await call("POST", "/search", { body: { query: "alpha", max_results: 3 } }))[0]).toBe(
          "first answer 0",
        );
        const taskPath = new URL(rec.poll3.request.path, "http://x").pathname;
        const { zipUrl } = (await call("GET", taskPath)).body as { zipUrl: string };
        expect(zipUrl.startsWith(`${mock.url}/deepcrawl/files/`)).toBe(true);
        expect((await call("GET", "", { url: zipUrl, key: null })).raw.equals(zipBytes)).toBe(true);
      } finally {
        await mock.close();
      }
    }
  });

  it("never sends a recorded header whose value was redacted, wholly or in part", async () => {
    const res = rec.searchFirst.response as NonNullable<Exchange["response"]>;
    const withSecrets: Exchange = {
      ...rec.searchFirst,
      response: {
        ...res,
        headers: [...res.headers, ["x-kept", "yes"], ["set-cookie", "s=1"]],
      },
    };
    const har = harOf([withSecrets]);
    const headers = har.log.entries[0].response.headers;
    headers.push({ name: "x-scrubbed", value: "Bearer [REDACTED]" });
    const mock = await startMock({
      port: 0,
      contract,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 10 }],
      replay: har,
    });
    const call = client(() => mock);
    try {
      const answer = await call("POST", "/search", { body: { query: "alpha", max_results: 3 } });
      expect(answer.headers.get("x-kept")).toBe("yes");
      expect(answer.headers.get("x-scrubbed")).toBeNull();
      expect(answer.headers.get("set-cookie")).toBeNull();
    } finally {
      await mock.close();
    }
  });
});

describe("rate limits while replaying", () => {
  it("count replayed calls: the third in a window of two is refused with 429 and Retry-After", async () => {
    const mock = await startMock({
      port: 0,
      contract,
      clock: "manual",
      startTime: START,
      rateLimits: { perAccount: 2 },
      keys: [{ key: "k", credits: 100 }],
      replay: harOf([rec.searchFirst]),
    });
    const call = client(() => mock);
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 3; i++) {
        const r = await call("POST", "/search", { body: { query: "alpha", max_results: 3 } });
        statuses.push(r.status);
        retryAfter ??= r.headers.get("retry-after");
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(mock.admin.journal.list().filter((e) => e.replayedFrom).length).toBe(2);
    } finally {
      await mock.close();
    }
  });
});

describe("validation at load", () => {
  const broken = () => [
    editJson(rec.searchFirst, (b) => ({ ...b, results: "not a list" })),
    {
      ...rec.searchSecond,
      response: { ...(rec.searchSecond.response as NonNullable<Exchange["response"]>), status: 418 },
    },
    {
      ...rec.searchThird,
      request: { ...rec.searchThird.request, body: Buffer.from(JSON.stringify({ query: "plain" })) },
      response: {
        ...(rec.searchThird.response as NonNullable<Exchange["response"]>),
        headers: [["content-type", "text/plain"]] as Array<[string, string]>,
        body: Buffer.from("hello"),
      },
    },
  ];

  it("reports an answer that violates the spec (schema, unlisted status, content type) and does not serve it", async () => {
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 100 }],
      replay: harOf(broken()),
    });
    const call = client(() => mock);
    try {
      const invalid = mock.replay?.invalid ?? [];
      expect(invalid.map((v) => [v.entry, v.status, v.served, v.errors[0].code])).toEqual([
        [0, 200, false, "type"],
        [1, 418, false, "status"],
        [2, 200, false, "contentType"],
      ]);
      expect(invalid[0].errors[0].field).toBe("/results");
      expect(mock.replay?.answers).toBe(0);
      const answer = await call("POST", "/search", { body: { query: "alpha", max_results: 3 } });
      expect(answer.status).toBe(200);
      expect(Array.isArray((answer.body as Json).results)).toBe(true); // the mock's own
    } finally {
      await mock.close();
    }
  });

  it("serves them with replayInvalid, still reported", async () => {
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 100 }],
      replay: harOf(broken()),
      replayInvalid: true,
    });
    const call = client(() => mock, []); // answers violate the spec on purpose: not collected
    try {
      expect(mock.replay?.invalid.every((v) => v.served)).toBe(true);
      expect((await call("POST", "/search", { body: { query: "alpha", max_results: 3 } })).body).toMatchObject({
        results: "not a list",
      });
      const teapot = await call("POST", "/search", { body: { query: "alpha", max_results: 3 } });
      expect(teapot.status).toBe(418);
      const plain = await call("POST", "/search", { body: { query: "plain" } });
      expect(plain.headers.get("content-type")).toBe("text/plain");
      expect(plain.raw.toString()).toBe("hello");
    } finally {
      await mock.close();
    }
  });

  it("never serves what HTTP cannot carry (a header with a line break, status 999), even with replayInvalid", async () => {
    const har = harOf([rec.searchFirst, rec.surcharged]);
    har.log.entries[0].response.headers.push({ name: "x-injected", value: "a\r\nset-cookie: evil=1" });
    har.log.entries[1].response.status = 999;
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 100 }],
      replay: har,
      replayInvalid: true,
    });
    const call = client(() => mock, []);
    try {
      expect(mock.replay?.invalid.map((v) => [v.entry, v.served, v.errors.map((e) => e.code)])).toEqual([
        [0, true, ["header"]],
        [1, false, ["status"]],
      ]);
      const first = await call("POST", "/search", { body: { query: "alpha", max_results: 3 } });
      expect([first.status, first.headers.get("x-injected"), first.headers.get("set-cookie")]).toEqual([
        200,
        null,
        null,
      ]);
      expect(titles(first)[0]).toBe("first answer 0");
      expect((await call("POST", "/search", { body: { query: "costly", crawl_results: 2 } })).status).toBe(200); // its own
    } finally {
      await mock.close();
    }
  });

  it("skips exchanges that got no answer, and serves a compressed recording decoded, without its framing headers", async () => {
    const res = rec.searchFirst.response as NonNullable<Exchange["response"]>;
    const gzipped: Exchange = {
      ...rec.searchFirst,
      response: {
        ...res,
        headers: [
          ...res.headers.filter(([n]) => n !== "content-length"),
          ["content-encoding", "gzip"],
          ["content-length", "12"],
          ["x-upstream", "yes"],
        ],
        body: gzipSync(res.body),
      },
    };
    const noAnswer: Exchange = { ...rec.crawl404, response: undefined, error: "ECONNRESET" };
    const mock = await startMock({
      port: 0,
      contract,
      seed: 99,
      rateLimits: { perAccount: 0 },
      keys: [{ key: "k", credits: 100 }],
      replay: harOf([gzipped, noAnswer]),
    });
    const call = client(() => mock);
    try {
      expect(mock.replay?.skipped.map((s) => [s.reason, s.detail])).toEqual([
        ["no-answer", "no answer was recorded: ECONNRESET"],
      ]);
      const answer = await call("POST", "/search", { body: { query: "alpha", max_results: 3 } });
      expect(answer.headers.get("content-encoding")).toBeNull();
      expect(answer.headers.get("x-upstream")).toBe("yes");
      expect(answer.raw.equals(res.body)).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe("malformed recordings", () => {
  const load = (replay: string | HarDocument, maxBytes?: number) =>
    startMock({ port: 0, contract, keys: [{ key: "k", credits: 1 }], replay, replayMaxBytes: maxBytes });

  it("are a ReplayFileError naming the file and the problem, never a crash", async () => {
    const cases: Array<[string | HarDocument, RegExp, number?]> = [
      [join(dir, "missing.har"), /missing\.har: cannot be read \(ENOENT\)/],
      [writeHar("text.har", "this is not json"), /text\.har: is not JSON/],
      [
        writeHar("other.har", { hello: "world" } as unknown as HarDocument),
        /other\.har: is not a HAR file replay can read: .*log is required/,
      ],
      [
        writeHar("status.har", {
          log: {
            entries: [{ request: { method: "GET", url: "http://x/usage" }, response: { status: "200", content: {} } }],
          },
        } as unknown as HarDocument),
        /status\.har: .*\/log\/entries\/0\/response\/status must be integer/,
      ],
      [
        writeHar("relative.har", {
          log: { entries: [{ request: { method: "GET", url: "/usage" }, response: { status: 200, content: {} } }] },
        }),
        /relative\.har: log\.entries\[0\]\.request\.url is not an absolute URL/,
      ],
      [
        writeHar("b64.har", {
          log: {
            entries: [
              {
                request: { method: "GET", url: "http://x/deepcrawl/files/a.zip" },
                response: { status: 200, content: { text: "%%%", encoding: "base64" } },
              },
            ],
          },
        }),
        /b64\.har: log\.entries\[0\]\.response\.content\.text is not base64/,
      ],
      [
        writeHar("big.har", harOf([rec.search])),
        /big\.har: is 0\.\d+ MiB, more than replay reads \(0\.001 MiB\)/,
        1024,
      ],
      [{ log: {} } as unknown as HarDocument, /<HAR object 1>: .*\/log\/entries is required/],
    ];
    for (const [replay, message, max] of cases) {
      const started = load(replay, max);
      await expect(started).rejects.toBeInstanceOf(ReplayFileError);
      await expect(started).rejects.toThrow(message);
    }
  });
});

function headerOf(ex: Exchange, name: string): string | undefined {
  return ex.response?.headers.find(([n]) => n === name)?.[1];
}
