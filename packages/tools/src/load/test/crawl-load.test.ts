// `plumbline bench crawl-load` end to end on the committed fixture pages: it starts the reference twice per round
// (one parse thread, the default pool), in rounds whose verdict is the median round, and says where a crawl's CPU
// went. The verdict itself depends on the machine, so this checks the figures are real and consistent with it.
import { fileURLToPath } from "node:url";
import type { CrawlLoadResult } from "@plumbline-kit/bench/load/crawl-load";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../../test-support/cli-process.ts";
import { median } from "../latency-summary.ts";

const DATA = fileURLToPath(new URL("./fixtures/article-extraction", import.meta.url));

describe("bench crawl-load against the reference it starts", () => {
  it("measures rounds of one-thread and pool runs, and judges the median round", async () => {
    // the shortest runs the bench takes, light: one warm-up crawl per parse thread, two crawls in flight (the pool's
    // threads both busy); what the figures come to is not judged here, only that they are real and consistent
    const args = ["bench", "crawl-load", "--data", DATA, "--duration", "1", "--rounds", "2", "--warmup", "1"];
    const run = await runCli([...args, "--connections", "2", "--json"]);
    expect(run.stderr).toBe("");
    const r = JSON.parse(run.stdout) as CrawlLoadResult;
    expect(run.code).toBe(r.pass ? 0 : 1);
    expect(r.rounds).toHaveLength(2);
    for (const round of r.rounds) {
      expect(round.single).toMatchObject({ threads: "1", failed: 0 });
      expect(round.pool).toMatchObject({ threads: "default", failed: 0 });
      expect(round.single.pagesPerSecond).toBeGreaterThan(0);
      expect(round.throughputRatio).toBeCloseTo(round.pool.pagesPerSecond / round.single.pagesPerSecond, 6);
      // only the pool runs are probed, in a window of their own after the one pages/s is measured in
      expect(round.single.idle).toBeUndefined();
      expect(round.single.probedPagesPerSecond).toBeUndefined();
      expect(round.pool.probedPagesPerSecond).toBeGreaterThan(0);
      expect(round.pool.idle?.health).toBeGreaterThan(0);
      expect(round.healthRatio).toBeCloseTo((round.pool.loaded?.health ?? 0) / (round.pool.idle?.health ?? 1), 6);
      if (process.platform === "linux") {
        // read from the server's own threads, the child `plumbline reference` starts (bin/relaunch.js)
        for (const cpu of [round.single.cpu, round.pool.cpu]) {
          expect(cpu?.parse).toBeGreaterThan(0);
          expect(cpu?.loop).toBeGreaterThan(0);
        }
      }
    }
    expect(r.throughputRatio).toBeCloseTo(median(r.rounds.map((d) => d.throughputRatio)), 6);
    expect(r.pass).toBe(r.throughputRatio >= 1.5 && r.healthRatio <= 2 && r.usageRatio <= 2);
    // a hang detector: it starts the reference four times from the sources, which a loaded machine makes slow
  }, 300_000);

  it("refuses a bad number of rounds before starting anything", async () => {
    const run = await runCli(["bench", "crawl-load", "--data", DATA, "--rounds", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("option '--rounds <n>' argument '0' is invalid. Expected a whole number 1..20.");
  });
});
