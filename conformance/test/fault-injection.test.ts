// The suite bites: each variant breaks one behaviour of a correct target (the mock) through a proxy, and the run
// must fail with the check that owns that behaviour.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { type Fault, jsonOf, type ProxiedRequest, startFaultProxy, withJson } from "./fault-proxy.ts";

type Json = Record<string, unknown>;
const isBatch = (req: ProxiedRequest) => req.body.length > 0 && req.body.toString().trimStart().startsWith("[");
const post = (req: ProxiedRequest, path: string) => req.method === "POST" && req.path === path;

interface Variant {
  name: string;
  fault: Fault;
  only: string[];
  fails: string;
}

const VARIANTS: Variant[] = [
  {
    name: "a batch summary that does not add up",
    fault: {
      rewrite: (req, res) => {
        if (!post(req, "/search") || !isBatch(req) || res.status !== 200) return res;
        const b = jsonOf(res) as { summary: Json };
        return withJson(res, { ...b, summary: { ...b.summary, totalCost: Number(b.summary.totalCost) + 1 } });
      },
    },
    only: ["billing-batch-cost", "batch-summary-arithmetic"],
    fails: "batch-summary-arithmetic",
  },
  {
    name: "batch entries in reverse order",
    fault: {
      rewrite: (req, res) => {
        if (!post(req, "/search") || !isBatch(req) || res.status !== 200) return res;
        const b = jsonOf(res) as { results: unknown[] };
        return withJson(res, { ...b, results: [...b.results].reverse() });
      },
    },
    only: ["batch-entries-match-request"],
    fails: "batch-entries-match-request",
  },
  {
    name: "no x-request-id",
    fault: { rewrite: (_req, res) => ({ ...res, headers: { ...res.headers, "x-request-id": undefined } }) },
    only: ["health-status-version", "x-request-id"],
    fails: "x-request-id",
  },
  {
    name: "deepcrawl answering 200 instead of 202",
    fault: { rewrite: (req, res) => (post(req, "/deepcrawl") && res.status === 202 ? { ...res, status: 200 } : res) },
    only: ["deepcrawl-accepted-queued", "response-status-listed"],
    fails: "deepcrawl-accepted-queued",
  },
  {
    name: "every crawl charged twice",
    fault: { duplicate: (req) => post(req, "/crawl") && !isBatch(req) },
    only: ["billing-price-per-operation"],
    fails: "billing-price-per-operation",
  },
  {
    name: "out-of-range values accepted (422 turned into 200)",
    fault: { rewrite: (_req, res) => (res.status === 422 ? withJson({ ...res, status: 200 }, { results: [] }) : res) },
    only: ["bounds-past-rejected"],
    fails: "bounds-past-rejected",
  },
  {
    name: "rejected calls charged",
    fault: {
      sideCall: (req, res) =>
        res.status === 422 && req.headers.authorization
          ? {
              method: "POST",
              path: "/trending",
              headers: { ...req.headers, "content-type": "application/json" },
              body: Buffer.from('{"search_service":"github"}'),
            }
          : null,
    },
    only: ["billing-rejected-free"],
    fails: "billing-rejected-free",
  },
  {
    name: "status polling charged",
    fault: {
      sideCall: (req) =>
        req.method === "GET" && req.path.startsWith("/deepcrawl/status/dc_") && req.headers.authorization
          ? {
              method: "POST",
              path: "/trending",
              headers: { ...req.headers, "content-type": "application/json" },
              body: Buffer.from('{"search_service":"github"}'),
            }
          : null,
    },
    only: ["deepcrawl-polling-free"],
    fails: "deepcrawl-polling-free",
  },
  {
    name: "a corrupt zip",
    fault: {
      rewrite: (req, res) => {
        if (!req.path.endsWith(".zip") || res.status !== 200) return res;
        const body = Buffer.from(res.body);
        body.fill(0x42, 30, Math.min(body.length, 400));
        return { ...res, body };
      },
    },
    only: ["deepcrawl-zip-valid"],
    fails: "deepcrawl-zip-valid",
  },
  {
    name: "401 without resource_metadata",
    fault: {
      rewrite: (_req, res) =>
        res.status === 401 ? { ...res, headers: { ...res.headers, "www-authenticate": 'Bearer realm="api"' } } : res,
    },
    only: ["auth-invalid-bearer-401"],
    fails: "auth-invalid-bearer-401",
  },
  {
    name: "error bodies without ok:false",
    fault: {
      rewrite: (_req, res) => {
        if (res.status < 400) return res;
        const { ok: _ok, ...rest } = jsonOf(res) as Json;
        return withJson(res, rest);
      },
    },
    only: ["bounds-malformed-400", "error-body-members"],
    fails: "error-body-members",
  },
  {
    name: "a payment challenge quoting the wrong price",
    fault: {
      rewrite: (_req, res) => {
        if (res.status !== 402) return res;
        const wa = String(res.headers["www-authenticate"]).replace(
          /request="[^"]*"/,
          `request="${Buffer.from('{"amount":"9.99","currency":"usd"}').toString("base64url")}"`,
        );
        return { ...res, headers: { ...res.headers, "www-authenticate": wa } };
      },
    },
    only: ["auth-anonymous-refused", "payment-challenge"],
    fails: "payment-challenge",
  },
  {
    name: "more results than max_results",
    fault: {
      rewrite: (req, res) => {
        if (!post(req, "/search") || isBatch(req) || res.status !== 200) return res;
        const b = jsonOf(res) as { results: unknown[] };
        return withJson(res, { ...b, results: [...b.results, ...b.results, ...b.results] });
      },
    },
    only: ["billing-crawl-results-surcharge", "search-max-results"],
    fails: "search-max-results",
  },
  {
    name: "a screenshot answered as JPEG when PNG was asked",
    fault: {
      rewrite: (req, res) =>
        post(req, "/screenshot") && res.status === 200
          ? { ...res, headers: { ...res.headers, "content-type": "image/jpeg" } }
          : res,
    },
    only: ["billing-price-per-operation", "response-media-type"],
    fails: "response-media-type",
  },
];

let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess([
    "--key",
    "KEY:100000000",
    "--key",
    "BROKE:0",
    "--deepcrawl-steps",
    "0,0,100",
    "--rate-limit",
    "0",
  ]);
});
afterAll(async () => {
  await mock?.stop();
});

describe("the suite rejects broken targets", () => {
  it("passes the same subsets against the mock itself (no false alarm)", async () => {
    const only = [...new Set(VARIANTS.flatMap((v) => v.only))];
    const r = await runConformance({ target: mock.url, apiKey: "KEY", brokeApiKey: "BROKE", reportDir: null, only });
    expect(r.checks.filter((c) => c.status === "failed").map((c) => [c.id, c.failures[0]?.message])).toEqual([]);
  }, 30_000);

  for (const v of VARIANTS) {
    it(`fails ${v.fails} for ${v.name}`, async () => {
      const proxy = await startFaultProxy(mock.url, v.fault);
      try {
        const r = await runConformance({
          target: proxy.url,
          apiKey: "KEY",
          brokeApiKey: "BROKE",
          reportDir: null,
          only: v.only,
        });
        expect(r.exitCode).toBe(1);
        expect(r.checks.filter((c) => c.status === "failed").map((c) => c.id)).toContain(v.fails);
      } finally {
        await proxy.close();
      }
    });
  }
});
