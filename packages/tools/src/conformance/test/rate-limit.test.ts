// The deliberate 429 of a default run (issue 35): planned without --include, it crosses the account's window on the
// free GET /usage, judges the throttling answer and that the target serves again after Retry-After. The mock here
// limits to 5 requests per 2 s window (MockOptions.rateLimits), so the wait it advertises is at most 2 s; the fault
// doubles (fault-proxy.ts) each break one part of the throttling answer.

import { loadContract } from "@plumbline-kit/contract";
import { type RunningMock, startMock } from "@plumbline-kit/mock/start-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../index.ts";
import { makeScope } from "../operation-scope.ts";
import { makePlan } from "../plan.ts";
import { type Fault, type ProxiedResponse, startFaultProxy } from "./fault-proxy.ts";

const ID = "rate-limit-retry-after";
const is429 = (res: ProxiedResponse) => res.status === 429;
const without = (res: ProxiedResponse, name: string) => ({ ...res, headers: { ...res.headers, [name]: undefined } });

let limited: RunningMock;
let unlimited: RunningMock;
beforeAll(async () => {
  const keys = [{ key: "KEY", credits: 1000 }];
  limited = await startMock({ port: 0, keys, rateLimits: { perAccount: 5, windowSeconds: 2 } });
  unlimited = await startMock({ port: 0, keys, rateLimits: { perAccount: 0 } });
});
afterAll(async () => {
  await limited?.close();
  await unlimited?.close();
});

const run = (target: string) => runConformance({ target, apiKey: "KEY", reportDir: null, only: [ID] });
const check = (r: Awaited<ReturnType<typeof run>>) => r.checks.find((c) => c.id === ID);

async function through(fault: Fault) {
  const proxy = await startFaultProxy(limited.url, fault);
  try {
    return await run(proxy.url);
  } finally {
    await proxy.close();
  }
}

describe("the deliberate 429", () => {
  it("is planned by default, free", async () => {
    const contract = await loadContract();
    const scope = makeScope(contract, []);
    if (!scope.ok) throw new Error(scope.error);
    const plain = makePlan(contract, contract, { only: [], skip: [], include: [] }, scope.scope);
    const only = makePlan(contract, contract, { only: [ID], skip: [], include: [] }, scope.scope);
    if (!plain.ok || !only.ok) throw new Error("no plan");
    expect(plain.plan.checks.map((c) => c.id)).toContain(ID);
    expect(only.plan.credits).toBe(0);
  });

  it("passes against a mock limited to 5 per 2 s: 429 judged, served again after Retry-After", async () => {
    const r = await run(limited.url);
    expect(check(r)?.status, JSON.stringify(check(r))).toBe("passed");
    expect(check(r)?.notes.join(" ")).toMatch(
      /^429 after \d+ requests .* served again after waiting Retry-After [12] s$/,
    );
    const sent = r.exchanges.filter((e) => e.by === ID);
    // just enough to cross the window the mock advertises (5), not the decided 200
    expect(sent.length).toBeLessThanOrEqual(5 + 1 + 10 + 1);
    expect(sent.at(-1)?.response?.status).toBe(200);
    expect(r.exitCode).toBe(0);
  });

  it("fails a 429 without Retry-After", async () => {
    const r = await through({ rewrite: (_req, res) => (is429(res) ? without(res, "retry-after") : res) });
    expect(r.exitCode).toBe(1);
    expect(check(r)?.failures.map((f) => f.message)).toEqual(["429 without a Retry-After in seconds"]);
  });

  it("fails a 429 without the RateLimit headers or the contract's error body", async () => {
    const r = await through({
      rewrite: (_req, res) =>
        is429(res)
          ? { ...without(without(res, "ratelimit"), "ratelimit-policy"), body: Buffer.from('{"error":"slow down"}') }
          : res,
    });
    expect(r.exitCode).toBe(1);
    expect(check(r)?.failures.map((f) => f.message)).toEqual([
      "the 429 body is not the contract's error (code PLB_RATE_LIMITED)",
      "429 without a RateLimit header saying the window is used up",
      "429 without a RateLimit-Policy header",
    ]);
  });

  it("fails, without waiting, a Retry-After longer than the advertised window", async () => {
    const r = await through({
      rewrite: (_req, res) => (is429(res) ? { ...res, headers: { ...res.headers, "retry-after": "86400" } } : res),
    });
    expect(r.exitCode).toBe(1);
    expect(check(r)?.failures.map((f) => f.message)).toEqual([
      "Retry-After 86400 s is longer than the advertised window (w=2)",
    ]);
    expect(r.exchanges.filter((e) => e.by === ID).at(-1)?.response?.status).toBe(429);
  });

  it("fails a target that still refuses once the advertised wait is over", async () => {
    let refusing = false;
    const r = await through({
      rewrite: (req, res) => {
        if (is429(res)) refusing = true;
        if (!refusing || req.path !== "/usage") return res;
        return {
          status: 429,
          headers: {
            "content-type": "application/json",
            "retry-after": "1",
            ratelimit: '"default";r=0;t=1',
            "ratelimit-policy": '"default";q=5;w=2',
          },
          body: Buffer.from(
            JSON.stringify({ ok: false, error: "Too Many Requests", code: "PLB_RATE_LIMITED", message: "limited" }),
          ),
        };
      },
    });
    expect(r.exitCode).toBe(1);
    expect(check(r)?.failures.map((f) => f.message)).toEqual([
      "GET /usage is still refused after waiting Retry-After 1 s",
    ]);
  });

  it("skips with the reason a target that advertises no limit, without a request more", async () => {
    const r = await run(unlimited.url);
    expect(check(r)).toMatchObject({ status: "skipped", skipKind: "not-applicable" });
    expect(check(r)?.reason).toBe(
      "GET /usage advertises no rate limit (no RateLimit header) and none is stated (--rate-limit N): no window to cross",
    );
    expect(r.exchanges.filter((e) => e.by === ID)).toHaveLength(1);
    expect(r.exitCode).toBe(0);
  });

  it("skips with the reason a target that does not refuse within twice the stated limit", async () => {
    const r = await runConformance({
      target: unlimited.url,
      apiKey: "KEY",
      reportDir: null,
      only: [ID],
      rateLimit: "5",
    });
    expect(check(r)).toMatchObject({ status: "skipped", skipKind: "not-applicable" });
    expect(check(r)?.reason).toBe(
      "no 429 within 22 requests of GET /usage (6 owed one, from --rate-limit 5): the target does not limit this account",
    );
  });
});
