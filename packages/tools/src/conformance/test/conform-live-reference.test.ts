// `conform --contract live` against `plumbline reference --contract live` (issue 39 "Done when"), on the two
// operations the live version adds, with the reference's limits on: the checks of /ask and /feedback pass (the
// eleventh report of a minute meets its 429), and the one that needs a way to make an engine fail is skipped as not
// applicable, since the reference offers none (the mock's steering is judged in conform-live.test.ts). The whole
// seed suite against the reference is against-reference.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceProcess, startReferenceProcess } from "../../../../../test-support/reference-process.ts";
import { runConformance } from "../index.ts";
import type { ConformanceResult } from "../types.ts";

const CREDITS = 10_000;
let reference: ReferenceProcess;
let result: ConformanceResult;

async function usage(key: string): Promise<number> {
  const r = await fetch(`${reference.url}/usage`, { headers: { authorization: `Bearer ${key}` } });
  return ((await r.json()) as { usage: number }).usage;
}

beforeAll(async () => {
  reference = await startReferenceProcess({
    keys: [`LIVE:${CREDITS}`, "LIVE-BROKE:0"],
    args: ["--contract", "live"],
  });
  result = await runConformance({
    target: reference.url,
    apiKey: "LIVE",
    brokeApiKey: "LIVE-BROKE",
    contractVersion: "live",
    operations: ["ask", "feedback"],
    reportDir: null,
  });
}, 240_000);

afterAll(async () => {
  await reference?.stop();
});

describe("conform --contract live against the reference under live (/ask and /feedback)", () => {
  it("passes the checks of /ask and /feedback, the rate window's included", async () => {
    const failed = result.checks.filter((c) => c.status === "failed");
    expect(failed.map((c) => [c.id, c.failures.slice(0, 3).map((f) => `${f.message} ${f.actual ?? ""}`)])).toEqual([]);
    const by = (id: string) => result.checks.find((c) => c.id === id)?.status;
    for (const id of [
      "ask-intent-phrases",
      "ask-charged",
      "ask-relevance-order",
      "feedback-stored",
      "feedback-limits",
      "feedback-rate-limit",
      "feedback-no-echo",
    ])
      expect(by(id), id).toBe("passed");
    expect(by("ask-engine-failures")).toBe("skipped");
  });

  it("spends what it counted, and nothing of the broke account", async () => {
    const spent = result.creditsSpent ?? Number.NaN;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(result.planCredits);
    expect(await usage("LIVE")).toBe(CREDITS - spent);
    expect(await usage("LIVE-BROKE")).toBe(0);
  });
});
