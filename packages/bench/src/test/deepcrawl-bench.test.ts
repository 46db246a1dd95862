// `plumbline bench deepcrawl` end to end with a tiny site: the crawl it times is real (every page fetched and
// packaged) and its figures agree with each other. The speed itself depends on the machine: never judged here.
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../test-support/cli-process.ts";
import type { DeepcrawlBenchResult } from "../deepcrawl-bench.ts";

describe("bench deepcrawl", () => {
  it("crawls and packages every page of the generated site, and reports consistent figures", async () => {
    const run = await runCli(["bench", "deepcrawl", "--pages", "24", "--concurrency", "4", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as DeepcrawlBenchResult;
    expect(r).toMatchObject({ status: "completed", limitReached: null, completed: true, pages: 24, concurrency: 4 });
    expect(r.message).toMatch(/^24 pages packaged/);
    expect(r.crawled).toBe(24);
    expect(r.seconds).toBeGreaterThan(0);
    expect(r.pagesPerSecond).toBeCloseTo(r.crawled / r.seconds, 6);
    // every page's document carries a paragraph of a few hundred bytes
    expect(r.packageBytes).toBeGreaterThan(24 * 300);
    expect(r.rssBefore).toBeGreaterThan(0);
    expect(r.rssPeak).toBeGreaterThanOrEqual(r.rssBefore);
  }, 120_000);

  it("prints its options, and refuses bad ones with exit 2 before starting anything", async () => {
    const help = await runCli(["bench", "deepcrawl", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: plumbline bench deepcrawl \[options\]/);
    for (const flag of ["--pages <n>", "--concurrency <n>", "--json"]) expect(help.stdout).toContain(flag);
    const pages = await runCli(["bench", "deepcrawl", "--pages", "0"]);
    expect(pages.code).toBe(2);
    expect(pages.stderr).toContain("option '--pages <n>' argument '0' is invalid. Expected a whole number 1..20000.");
    const concurrency = await runCli(["bench", "deepcrawl", "--concurrency", "2.5"]);
    expect(concurrency.code).toBe(2);
    expect(concurrency.stderr).toContain(
      "option '--concurrency <n>' argument '2.5' is invalid. Expected a whole number 1..64.",
    );
  }, 60_000);
});
