// `plumbline gate` against `npm start`, exactly as issue 27 names it: the mock with its default limits (200 requests a
// minute per account) and its demo key of 1000 credits. A file of its own: the run takes its full default 120 s
// (paced to the limits), so it runs beside the other gate tests rather than after them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startMockProcess } from "../../../../../test-support/mock-process.ts";
import { gate, removeGateReports } from "./gate-cli.ts";

afterAll(removeGateReports);

describe("plumbline gate against npm start (issue 27: the mock with its default limits and the demo key)", () => {
  it("passes every stage: load paced to the limits, credits accounted, within its time and the key's credits", async () => {
    // `npm start` is `plumbline mock`: the demo key with 1000 credits, D-rate-limits (200 a minute per account)
    const mock = await startMockProcess([]);
    try {
      // the broke key through the mock's admin API
      const created = await fetch(`${mock.url}/__mock/accounts`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: "BROKE", credits: 0 }),
      });
      expect(created.status).toBe(201);
      const r = await gate(["--target", mock.url, "--api-key", "plumbline-demo-key", "--broke-api-key", "BROKE"]);
      const json = JSON.parse(readFileSync(join(r.dir, "gate.json"), "utf8"));
      const load = JSON.parse(readFileSync(join(r.dir, "load", "load.json"), "utf8"));
      // The load stage is judged by the gate's default budgets (load/thresholds/gate.json): no errors, every answer
      // within its time. No speed budget: a test never judges the machine's speed, and the gate never guesses one.
      expect(r.code, r.out.slice(-4000)).toBe(0);
      expect(load.thresholds.map((t: { expression: string; status: string }) => [t.expression, t.status])).toEqual(
        expect.arrayContaining([
          ["error_rate < 0.1%", "passed"],
          ["max < 35s", "passed"],
        ]),
      );
      expect(json.stages.map((s: { stage: string; exitCode: number }) => [s.stage, s.exitCode])).toEqual([
        ["conform", 0],
        ["fuzz", 0],
        ["load", 0],
      ]);
      // within its credit budget: the key's balance, never run dry
      expect(json.creditsSpent).toBeGreaterThan(0);
      expect(json.creditsSpent).toBeLessThanOrEqual(1000);
      // the mock is synthetic: its real-page checks skipped, counted by kind, printed, not fatal
      expect(json.stages[0].summary).toMatch(/skipped \(4 payment-key, \d+ synthetic\)$/);
      expect(load.rateLimits).toMatchObject({ source: "advertised", allowedRate: 3.33 });
      expect(load.rateLimits.pacedRate).toBeLessThanOrEqual(3);
      expect(load.rateLimits.policies).toContainEqual({ policy: "default", quota: 200, windowSeconds: 60 });
      // no 429 counted against the target: every one it sent was within its policy
      expect((load.overall.statuses["429"] ?? 0) - load.overall.throttled).toBe(0);
      expect(load.overall.errors).toBe(0);
      expect(load.credits).toMatchObject({ checked: true, pass: true });
      expect(load.creditCap.cap).toBeLessThanOrEqual(1000);
      expect(json.stages[2].summary).toMatch(/credits accounted; the advertised limits \(200 per 60 s \(default\)/);
      // within its time: the default 120 s the stages share, plus what ends a stage past its share (a window of the
      // limits waited out by a balance read, the load's drain of at most 10 s): bounded by the work, not the machine
      expect(json.seconds).toBeLessThanOrEqual(120 + 60 + 10);
      const junit = readFileSync(join(r.dir, "junit.xml"), "utf8");
      expect(junit).toMatch(/<testcase classname="conform\.skips" name="skipped: synthetic \(\d+ checks\)"/);
      expect(junit).toMatch(/<testcase classname="load\.limits" name="rate limits"/);
    } finally {
      await mock.stop();
    }
  }, 300_000);
});
