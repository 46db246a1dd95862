// The client-compatibility checks (issue 26) fail the run (issue 35: what breaks an official client fails) on a test
// double that behaves the way the mock did before its decisions (D-deepcrawl-success, D-echo, D-validation-message,
// D-trending-description): one proxy per old behaviour, built like the fault variants of fault-injection.test.ts,
// each failing exactly its own check with the client it breaks as the reason; the mock itself fails none. Under the
// lenient profile the same findings are warnings, which reach the text summary, the JSON record and the JUnit report.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { textSummary } from "../report/text-summary.ts";
import { REPORT_FILES } from "../report/write-reports.ts";
import type { ConformanceResult } from "../types.ts";
import { type Fault, jsonOf, type ProxiedRequest, startFaultProxy, withJson } from "./fault-proxy.ts";

type Json = Record<string, unknown>;
const sentOf = (req: ProxiedRequest) => JSON.parse(req.body.toString("utf8")) as unknown;
const isStatus = (req: ProxiedRequest) => req.method === "GET" && req.path.startsWith("/deepcrawl/status/");

interface OldWay {
  name: string;
  fault: Fault;
  /** the checks run: the client check, and one that makes the traffic it judges where it makes none itself */
  only: string[];
  fails: string;
}

const OLD_WAYS: OldWay[] = [
  {
    name: "success: false on a task still queued, waiting or processing",
    fault: {
      rewrite: (req, res) => {
        if (!isStatus(req) || res.status !== 200) return res;
        const b = jsonOf(res) as Json;
        return ["queued", "waiting", "processing"].includes(String(b.status))
          ? withJson(res, { ...b, success: false })
          : res;
      },
    },
    only: ["deepcrawl-completes", "client-deepcrawl-success-unfinished"],
    fails: "client-deepcrawl-success-unfinished",
  },
  {
    name: "searchParameters holding only the fields sent",
    fault: {
      rewrite: (req, res) => {
        if (req.method !== "POST" || !["/search", "/news"].includes(req.path) || res.status !== 200) return res;
        const b = jsonOf(res) as Json;
        const sent = sentOf(req);
        if (!Array.isArray(sent)) return withJson(res, { ...b, searchParameters: sent });
        const results = (b.results as Array<{ data?: Json }>).map((e, i) =>
          e.data ? { ...e, data: { ...e.data, searchParameters: sent[i] } } : e,
        );
        return withJson(res, { ...b, results });
      },
    },
    only: ["client-search-echo-defaults"],
    fails: "client-search-echo-defaults",
  },
  {
    name: "a 422 message that only counts the violations",
    fault: {
      rewrite: (_req, res) => {
        if (res.status !== 422) return res;
        const b = jsonOf(res) as { errors?: unknown[] };
        const n = b.errors?.length ?? 0;
        return withJson(res, { ...b, message: `The request failed validation (${n} error${n === 1 ? "" : "s"})` });
      },
    },
    only: ["client-validation-message-names-field"],
    fails: "client-validation-message-names-field",
  },
  {
    name: "trending results with description: null",
    fault: {
      rewrite: (req, res) => {
        if (req.method !== "POST" || req.path !== "/trending" || res.status !== 200) return res;
        const b = jsonOf(res) as { results: Json[] };
        return withJson(res, { ...b, results: b.results.map((r, i) => (i === 0 ? { ...r, description: null } : r)) });
      },
    },
    only: ["billing-price-per-operation", "client-trending-description-null"],
    fails: "client-trending-description-null",
  },
];
const CLIENT_CHECKS = OLD_WAYS.map((o) => o.fails);

let mock: MockProcess;
beforeAll(async () => {
  // every task is seen unfinished at least once: queued and waiting last 200 ms each, processing 300 ms
  mock = await startMockProcess(["--key", "KEY:100000000", "--deepcrawl-steps", "200,200,300", "--rate-limit", "0"]);
});
afterAll(async () => {
  await mock?.stop();
});

const statuses = (r: ConformanceResult) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));

describe("client-compatibility checks", () => {
  it("pass against the mock: no warning", async () => {
    const only = [...new Set(OLD_WAYS.flatMap((o) => o.only))];
    const r = await runConformance({ target: mock.url, apiKey: "KEY", reportDir: null, only });
    expect(r.exitCode).toBe(0);
    expect(r.summary.warning).toBe(0);
    for (const id of CLIENT_CHECKS) expect(statuses(r)[id], id).toBe("passed");
  }, 60_000);

  for (const o of OLD_WAYS) {
    it(`fails ${o.fails} for ${o.name}, naming the client it breaks`, async () => {
      const proxy = await startFaultProxy(mock.url, o.fault);
      try {
        const r = await runConformance({ target: proxy.url, apiKey: "KEY", reportDir: null, only: o.only });
        const failed = r.checks.filter((c) => c.status === "failed");
        expect(
          failed.map((c) => c.id),
          JSON.stringify(r.checks.map((c) => [c.id, c.status])),
        ).toEqual([o.fails]);
        expect(failed[0].reason).toMatch(
          /^breaks an official client \(D-[a-z-]+\): (@search1api\/client|search1api-mcp)/,
        );
        expect(failed[0].failures.length).toBeGreaterThan(0);
        expect(r.summary.warning).toBe(0);
        expect(r.exitCode).toBe(1);
      } finally {
        await proxy.close();
      }
    }, 60_000);
  }

  it("reports them as warnings under the lenient profile, with their reasons in the text summary, the JSON record and the JUnit report", async () => {
    const proxy = await startFaultProxy(mock.url, {
      rewrite: async (req, res) => {
        let out = res;
        for (const o of OLD_WAYS) out = await (o.fault.rewrite as NonNullable<Fault["rewrite"]>)(req, out);
        return out;
      },
    });
    const dir = mkdtempSync(join(tmpdir(), "plb-client-compat-"));
    try {
      const only = [...new Set(OLD_WAYS.flatMap((o) => o.only))];
      const r = await runConformance({ target: proxy.url, apiKey: "KEY", reportDir: dir, only, profile: "lenient" });
      expect(r.exitCode).toBe(0);
      expect(r.summary.warning).toBe(CLIENT_CHECKS.length);

      const text = textSummary(r);
      expect(text).toMatch(/^PASSED: .* 4 warnings/);
      for (const id of CLIENT_CHECKS)
        expect(text).toContain(`warning ${id}: client compatibility, not a contract violation (lenient profile)`);
      expect(text).toContain("a queued task answered success: false");

      const record = JSON.parse(readFileSync(join(dir, REPORT_FILES.json), "utf8")) as ConformanceResult;
      for (const id of CLIENT_CHECKS) {
        const c = record.checks.find((x) => x.id === id);
        expect(c?.status, id).toBe("warning");
        expect(c?.basis.kind).toBe("client");
        expect(c?.reason).toMatch(/@search1api\/client 0\.2\.1|search1api-mcp 0\.5\.3/);
      }

      const junit = readFileSync(join(dir, REPORT_FILES.junit), "utf8");
      expect(junit).toContain('failures="0"');
      for (const id of CLIENT_CHECKS) {
        const testcase = junit.slice(junit.indexOf(`name="${id}"`), junit.indexOf("</testcase>", junit.indexOf(id)));
        expect(testcase, id).toContain("WARNING: client compatibility, not a contract violation");
        expect(testcase, id).toContain("basis: client compatibility");
        expect(testcase, id).not.toContain("<failure");
      }
    } finally {
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
