// The suite bites: each variant breaks one behaviour of a correct target (the mock) through a proxy, and the run
// must fail with exactly the check that owns that behaviour (plus the ones a variant names in `alsoFails`, when
// the broken behaviour is judged twice by design); the other checks of its `only` list keep passing or skip.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { startFaultProxy, withJson } from "./fault-proxy.ts";
import { paymentCredential, post, VARIANTS, type Variant } from "./fault-variants.ts";

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
  }, 90_000);

  it("pays for the costly edges when the target judges a Payment credential before validating (no false alarm)", async () => {
    // every body with a Payment credential is refused 402 whatever it holds: validation no longer comes first
    const proxy = await startFaultProxy(mock.url, {
      rewrite: (req, res) =>
        paymentCredential(req) && res.status === 422
          ? withJson(
              { ...res, status: 402, headers: { "content-type": "application/problem+json" } },
              {
                ok: false,
                code: "PLB_PAYMENT_INVALID",
              },
            )
          : res,
    });
    try {
      const only = ["bounds-edge-accepted", "bounds-past-rejected", "bounds-published-set"];
      const r = await runConformance({ target: proxy.url, apiKey: "KEY", reportDir: null, only });
      expect(r.checks.map((c) => [c.id, c.status, c.failures[0]?.message])).toEqual(
        only.map((id) => [id, "passed", undefined]),
      );
      // no bound case went unpaid: the largest batches were executed and charged (50 entries each)
      const unpaid = r.exchanges.filter(
        (e) => e.by === "probe:bound-cases" && /^Payment /.test(e.request.headers.authorization ?? ""),
      );
      expect(unpaid.every((e) => e.response?.status === 422 || e.response?.status === 402)).toBe(true);
      expect(unpaid.length).toBe(8); // the calibration only: two requests for each of search, news, crawl, deepcrawl
      expect(r.creditsSpent).toBeGreaterThan(250);
      expect(r.creditsSpent).toBeLessThanOrEqual(r.planCredits);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("takes a listed 504 for an edge value as accepted by validation (a 1 s timeout_ms on a slow page), a 500 not", async () => {
    const answering = (code: number) =>
      startFaultProxy(mock.url, {
        rewrite: (req, res) =>
          post(req, "/screenshot") && res.status === 200
            ? withJson(
                { ...res, status: code, headers: { "content-type": "application/json" } },
                { ok: false, error: "Gateway Timeout", code: "PLB_UPSTREAM_TIMEOUT" },
              )
            : res,
      });
    for (const [code, verdict] of [
      [504, "passed"],
      [500, "failed"],
    ] as const) {
      const proxy = await answering(code);
      try {
        const r = await runConformance({
          target: proxy.url,
          apiKey: "KEY",
          reportDir: null,
          only: ["bounds-edge-accepted"],
          operations: ["screenshot"],
        });
        const check = r.checks.find((c) => c.id === "bounds-edge-accepted");
        expect(check?.status, `${code}`).toBe(verdict);
        if (code === 504) expect(check?.notes.join(" ")).toMatch(/accepted by validation, then answered 504/);
      } finally {
        await proxy.close();
      }
    }
  }, 90_000);

  it("reports a refused decided engine value as a warning under the lenient profile, not a failure", async () => {
    const variant = VARIANTS.find((v) => v.fails === "bounds-decided-values-accepted") as Variant;
    const proxy = await startFaultProxy(mock.url, variant.fault);
    try {
      const r = await runConformance({
        target: proxy.url,
        apiKey: "KEY",
        profile: "lenient",
        reportDir: null,
        only: variant.only,
      });
      expect(r.exitCode).toBe(0);
      expect(r.checks.map((c) => [c.id, c.status])).toEqual([
        ["bounds-edge-accepted", "passed"],
        ["bounds-decided-values-accepted", "warning"],
      ]);
      expect(r.checks[1].reason).toBe("rests on decision D-search-engine-values (lenient profile)");
    } finally {
      await proxy.close();
    }
  }, 60_000);

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
        const failed = r.checks.filter((c) => c.status === "failed").map((c) => c.id);
        expect(failed.sort(), JSON.stringify(r.checks.map((c) => [c.id, c.status, c.failures[0]?.message]))).toEqual(
          [v.fails, ...(v.alsoFails ?? [])].sort(),
        );
      } finally {
        await proxy.close();
      }
    }, 60_000);
  }
});
