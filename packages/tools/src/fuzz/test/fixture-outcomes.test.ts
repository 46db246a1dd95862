// --fixture-url without a target: the fuzzer reads a site (pages, pages that fail, the unreachable host), makes
// valid cases whose URLs are the site's with what each answered, and judges an answer against that: a page must
// succeed; on crawl a 404/410 passes through, charged; anything else is a free 502; batch entries that fail are
// left out and cost 0; a crawl batch in which nothing can succeed may answer its first failure. And the model's
// commands on such a target: only the selected operations, no clock, no task polls without deepcrawl.

import { type Contract, loadContract } from "@plumbline-kit/contract";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationCases } from "../arbitraries/operation-cases.ts";
import { judgeValidAnswer } from "../checks/valid-answer.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import { type FixtureSite, readFixtureSite, statusOf, UNREACHABLE_URL } from "../http/fixture-site.ts";
import type { HttpClient, HttpOutcome } from "../http/http-client.ts";
import { modelCommands } from "../model/model-property.ts";
import { type FuzzFixtureSite, startFuzzFixtureSite } from "./fuzz-fixture-site.ts";

let contract: Contract;
let server: FuzzFixtureSite;
let site: FixtureSite;

beforeAll(async () => {
  [contract, server] = await Promise.all([loadContract(), startFuzzFixtureSite()]);
  const read = await readFixtureSite(server.url, 5000);
  if (!read.ok) throw new Error(read.reason);
  site = read.site;
});
afterAll(() => server?.close());

const page = () => `${server.url}guide.html`;
const missing = () => `${server.url}plumbline-fuzz/no-such-page`;
const gone = () => `${server.url}retired.html`;

function crawlCase(body: unknown, operationId = "crawl"): FuzzCase {
  const urls = (Array.isArray(body) ? body : [body]).map((e) => (e as { url: string }).url);
  const fetched = Object.fromEntries(urls.map((u) => [u, site.statuses[u]]));
  return { operationId, request: { method: "POST", path: `/${operationId}`, body }, violation: null, fetched };
}

function answer(status: number, json: unknown): Extract<HttpOutcome, { ok: true }> {
  return { ok: true, status, headers: {}, contentType: "application/json", json, jsonError: false, bytes: 0, ms: 0 };
}

const crawled = (url: string) => ({ crawlParameters: { url }, results: { title: "t", link: url, content: "c" } });
const judge = (c: FuzzCase, status: number, json: unknown, balance = 100, fetches = true) => {
  const v = judgeValidAnswer(contract, c, answer(status, json), balance, fetches);
  return { checks: v.failures.map((f) => f.check), cost: v.cost, expected: v.expectedStatus };
};

describe("reading a fixture site", () => {
  it("keeps the URL, its sitemaps' pages of the same origin, and what each answered", () => {
    expect(site.pages.sort()).toEqual(
      [server.url, `${server.url}articles/tides.html`, `${server.url}guide.html`, `${server.url}notes.txt`].sort(),
    );
    expect(site.statuses[gone()]).toBe(410);
    expect(site.statuses[missing()]).toBe(404);
    // the conformance fixture site's /status/410 convention: here it is just another 404, and is kept as one
    expect(site.statuses[`${server.url}status/410`]).toBe(404);
    expect(site.statuses[UNREACHABLE_URL]).toBe(0);
    expect(Object.keys(site.statuses).some((u) => u.includes("example.org"))).toBe(false);
  });

  it("refuses a site without a page, and a URL that is not http(s)", async () => {
    expect(await readFixtureSite("http://127.0.0.1:9/", 2000)).toMatchObject({ ok: false });
    expect(await readFixtureSite("ftp://example.com/", 2000)).toMatchObject({ ok: false, reason: /http\(s\)/ });
  });
});

describe("valid cases made from a fixture site", () => {
  it("name only its URLs (pages with or without a fragment), with the status each answered", () => {
    const cases = operationCases(contract.contractOperations, { only: ["crawl", "sitemap", "screenshot"], site });
    const seen = new Set<number>();
    let fragments = 0;
    for (const c of cases) {
      fc.assert(
        fc.property(c.valid, (v) => {
          expect(contract.validators.checkBody(v.operationId, v.request.body).ok).toBe(true);
          const fetched = v.fetched ?? {};
          const entries = (Array.isArray(v.request.body) ? v.request.body : [v.request.body]) as Array<{ url: string }>;
          for (const e of entries) {
            const status = statusOf(site, e.url);
            expect(status, e.url).toBeDefined();
            expect(fetched[e.url]).toBe(status);
            seen.add(status as number);
            if (e.url.includes("#")) fragments++;
            // only crawl lists the target's 404 and 410: elsewhere every URL is a page
            if (v.operationId !== "crawl") expect(status).toBe(200);
          }
        }),
        { numRuns: 150, seed: 7 },
      );
    }
    expect([...seen].sort()).toEqual([0, 200, 404, 410]);
    expect(fragments).toBeGreaterThan(0);
  });
});

describe("judging an answer by what the fixture page answered", () => {
  it("a page must succeed and costs its price", () => {
    expect(judge(crawlCase({ url: page() }), 200, crawled(page()))).toEqual({ checks: [], cost: 1, expected: null });
    expect(judge(crawlCase({ url: page() }), 502, {}).checks).toContain("status-conformance");
  });

  it("on crawl a 404 or 410 passes through, charged; an unreachable host is a free 502", () => {
    expect(judge(crawlCase({ url: missing() }), 404, {})).toEqual({ checks: [], cost: 1, expected: 404 });
    expect(judge(crawlCase({ url: gone() }), 410, {})).toEqual({ checks: [], cost: 1, expected: 410 });
    expect(judge(crawlCase({ url: UNREACHABLE_URL }), 502, {})).toEqual({ checks: [], cost: 0, expected: 502 });
    expect(judge(crawlCase({ url: gone() }), 200, crawled(gone())).checks).toEqual(["status-conformance"]);
    expect(judge(crawlCase({ url: missing() }), 502, {}).checks).toEqual(["status-conformance"]);
    // 402 still wins when the balance cannot cover the call
    expect(judge(crawlCase({ url: missing() }), 402, {}, 0)).toMatchObject({ checks: [], cost: 0 });
  });

  it("an operation that lists no 404 turns a page that fails into a free 502", () => {
    expect(judge(crawlCase({ url: missing() }, "sitemap"), 502, {})).toEqual({ checks: [], cost: 0, expected: 502 });
    expect(judge(crawlCase({ url: missing() }, "sitemap"), 404, {}).checks).toEqual(["status-conformance"]);
  });

  it("on a target that fetches nothing (the mock) every URL is a page", () => {
    expect(judge(crawlCase({ url: missing() }), 200, crawled(missing()), 100, false)).toMatchObject({ checks: [] });
    expect(judge(crawlCase({ url: missing() }), 404, {}, 100, false).checks).toEqual(["status-conformance"]);
  });

  it("a crawl batch answers its pages, leaves out the entries that fail, and charges only the pages", () => {
    const c = crawlCase([{ url: page() }, { url: missing() }, { url: UNREACHABLE_URL }, { url: page() }]);
    expect(judge(c, 200, [crawled(page()), crawled(page())])).toEqual({ checks: [], cost: 2, expected: null });
    expect(judge(c, 200, [crawled(page())]).checks).toEqual(["status-conformance"]);
    expect(judge(c, 200, [crawled(page()), crawled(page()), crawled(missing())]).checks).toEqual([
      "status-conformance",
    ]);
    // entries run in order: with 1 credit only the first page is due
    expect(judge(c, 200, [crawled(page())], 1)).toMatchObject({ checks: [], cost: 1 });
  });

  it("a crawl batch in which nothing can succeed answers 200 [] or its first entry's failure, free", () => {
    const c = crawlCase([{ url: missing() }, { url: UNREACHABLE_URL }]);
    expect(judge(c, 404, {})).toEqual({ checks: [], cost: 0, expected: 404 });
    expect(judge(c, 200, [])).toEqual({ checks: [], cost: 0, expected: null });
    expect(judge(c, 502, {}).checks).toEqual(["status-conformance"]);
    expect(judge(crawlCase([{ url: UNREACHABLE_URL }]), 502, {})).toEqual({ checks: [], cost: 0, expected: 502 });
  });
});

describe("the model's commands follow the target and --operations", () => {
  const kinds = (admin: boolean, only: string[]) => {
    const target = { baseUrl: "", version: null, admin, clock: admin ? ("manual" as const) : null, steps: null };
    const cases = operationCases(contract.contractOperations, { only, site: admin ? null : site });
    const arbs = modelCommands({ contract, client: {} as HttpClient, target, apiKey: "k", cases });
    const specs = fc.sample(fc.oneof(...arbs), { numRuns: 300, seed: 3 }).map((c) => c.spec);
    return new Set(specs.map((s) => (s.kind === "call" ? s.operationId : s.kind)));
  };

  it("on a real target with --operations crawl,sitemap: those calls and usage reads, no polls, no clock", () => {
    expect([...kinds(false, ["crawl", "sitemap", "usage"])].sort()).toEqual(["crawl", "sitemap", "usage"]);
  });

  it("on the mock's manual clock with deepcrawl: task polls and clock moves too", () => {
    expect([...kinds(true, ["crawl", "deepcrawl"])].sort()).toEqual(
      ["advance", "crawl", "deepcrawl", "poll", "poll-unknown", "usage"].sort(),
    );
  });
});
