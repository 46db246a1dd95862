// The whole conformance suite against the mock, through the proxy: the proxy is transparent (the suite still passes:
// OAuth discovery, payments, zip links, rate-limit headers and all), and judging every one of the suite's edge
// cases it reports nothing against the mock's answers. The suite's deliberately invalid requests are the only
// violations, and they are the client's.

import { loadContract } from "@plumbline-kit/contract";
import { DEMO_PAYMENT_KEY } from "@plumbline-kit/mock/demo-keys";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../../conformance/index.ts";
import type { ConformanceResult } from "../../conformance/types.ts";
import type { ProxyReport } from "../report/violation-report.ts";
import { type RunningProxy, startProxy } from "../start-proxy.ts";

let mock: RunningMock;
let proxy: RunningProxy;
let result: ConformanceResult;
let report: ProxyReport;

beforeAll(async () => {
  const contract = await loadContract();
  mock = await startMock({
    port: 0,
    contract,
    keys: [
      { key: "KEY", credits: 10_000_000 },
      { key: "BROKE", credits: 0 },
    ],
    deepcrawlSteps: { queuedMs: 0, waitingMs: 0, processingMs: 200 },
    rateLimits: { perAccount: 0 },
  });
  proxy = await startProxy({ upstream: mock.url, port: 0, reportDir: null, contract });
  result = await runConformance({
    target: proxy.url,
    apiKey: "KEY",
    brokeApiKey: "BROKE",
    paymentMethod: "test",
    paymentKey: DEMO_PAYMENT_KEY,
    reportDir: null,
  });
  report = proxy.report();
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

describe("the conformance suite through the proxy, against the mock", () => {
  it("still passes: the proxy changes nothing a client can see", () => {
    const failed = result.checks.filter((c) => c.status === "failed");
    expect(failed.map((c) => [c.id, c.failures.slice(0, 2).map((f) => `${f.message} ${f.actual ?? ""}`)])).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it("finds no violation in any of the mock's answers, only in the suite's deliberately invalid requests", () => {
    const answers = report.operations.flatMap((op) =>
      op.rules
        .filter((g) => g.side === "response")
        .map((g) => `${op.operationId} ${g.rule}: ${g.examples[0]?.message} (#${g.examples[0]?.exchangeId})`),
    );
    expect(answers).toEqual([]);
    expect(report.totals.exchanges).toBeGreaterThan(200);
    const requestRules = new Set(report.operations.flatMap((op) => op.rules.map((g) => g.rule)));
    expect([...requestRules].sort()).toEqual(["request-json", "request-parameters", "request-schema"]);
  });
});
