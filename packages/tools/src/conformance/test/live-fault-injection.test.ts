// The live contract's checks bite (issue 39): `conform --contract live` passes the mock serving the live contract on
// the checks of /ask and /feedback, and each seeded fault of live-fault-variants.ts (relevance below 0.5, results
// not best first, an uncharged call, a failed engine left out of errors, a 201 while the store failed, the eleventh
// report of a minute accepted) fails exactly the check that owns it; a target without the mock's steering is judged
// on what it shows. The mock keeps its rate limits (the eleventh report must meet one); each run reports with a broke
// account of its own, so no run starts in a window another used up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { startFaultProxy, withJson } from "./fault-proxy.ts";
import { LIVE_VARIANTS } from "./live-fault-variants.ts";

const BROKE = Array.from({ length: LIVE_VARIANTS.length + 2 }, (_, i) => `BROKE${i}`);
let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess([
    "--contract",
    "live",
    "--key",
    "KEY:100000000",
    ...BROKE.flatMap((k) => ["--key", `${k}:0`]),
  ]);
});
afterAll(async () => {
  await mock?.stop();
});

const run = (target: string, only: string[], broke: string) =>
  runConformance({ contractVersion: "live", target, apiKey: "KEY", brokeApiKey: broke, reportDir: null, only });

describe("the live contract's checks reject broken targets", () => {
  it("pass the mock under --contract live (no false alarm), the mock's steering used", async () => {
    const only = [...new Set(LIVE_VARIANTS.flatMap((v) => v.only)), "feedback-no-echo"];
    const r = await run(mock.url, only, BROKE[LIVE_VARIANTS.length]);
    expect(r.checks.map((c) => [c.id, c.status, c.failures[0]?.message]).sort()).toEqual(
      only.map((id) => [id, "passed", undefined]).sort(),
    );
    const notes = r.checks.flatMap((c) => c.notes).join("\n");
    expect(notes).toMatch(/a 200 with arxiv in errors: charged 5/);
    expect(notes).toMatch(/a 502: charged 0/);
    expect(notes).toMatch(/a report the store failed to keep: 503/);
    expect(notes).toMatch(/429 after \d+ accepted reports/);
  }, 60_000);

  it("judge a target without the mock's steering on what it shows: no engine made to fail, no store failure", async () => {
    // the mock behind a proxy that hides its admin API, as any other target would: GET /__mock answers 404
    const hidden = await startFaultProxy(mock.url, {
      rewrite: (req, res) =>
        req.path.startsWith("/__mock")
          ? withJson({ ...res, status: 404, headers: { "content-type": "application/json" } }, { ok: false })
          : res,
    });
    try {
      const only = ["ask-intent-phrases", "ask-charged", "ask-engine-failures", "feedback-stored"];
      const r = await run(hidden.url, only, BROKE[LIVE_VARIANTS.length + 1]);
      expect(r.exitCode).toBe(0);
      expect(r.checks.map((c) => [c.id, c.status]).sort()).toEqual(
        [
          ["ask-intent-phrases", "passed"],
          ["ask-charged", "passed"],
          ["ask-engine-failures", "skipped"],
          ["feedback-stored", "passed"],
        ].sort(),
      );
      const byId = (id: string) => r.checks.find((c) => c.id === id);
      expect(byId("ask-engine-failures")?.reason).toMatch(/offers no way to make an engine fail/);
      expect(byId("ask-charged")?.notes).toEqual(["a 200 with no engine failed: charged 5"]);
      expect(byId("feedback-stored")?.notes.join(" ")).toMatch(/201 judged on its shape and cost only/);
      // nothing was steered: no request carried the mock's Prefer, and only the index of its admin API was read
      expect(r.exchanges.filter((e) => e.request.headers.prefer !== undefined)).toEqual([]);
      expect(r.exchanges.filter((e) => e.request.url.includes("/__mock")).map((e) => e.request.url)).toEqual([
        `${hidden.url}/__mock`,
      ]);
    } finally {
      await hidden.close();
    }
  }, 60_000);

  LIVE_VARIANTS.forEach((v, i) => {
    it(`fails ${v.fails} for ${v.name}`, async () => {
      const proxy = await startFaultProxy(mock.url, v.fault);
      try {
        const r = await run(proxy.url, v.only, BROKE[i]);
        expect(r.exitCode).toBe(1);
        const failed = r.checks.filter((c) => c.status === "failed").map((c) => c.id);
        expect(failed.sort(), JSON.stringify(r.checks.map((c) => [c.id, c.status, c.failures[0]?.message]))).toEqual(
          [v.fails, ...(v.alsoFails ?? [])].sort(),
        );
      } finally {
        await proxy.close();
      }
    }, 60_000);
  });
});
