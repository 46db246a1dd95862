// `plumbline bench` itself: its overview names every benchmark, the load/ ones get their argv unchanged, and a
// name it does not know is refused with exit 2.
import { describe, expect, it } from "vitest";
import { runCli } from "../../test-support/cli-process.ts";

const ALL = ["mock-search", "crawl-quality", "crawl-load", "screenshot", "deepcrawl", "s3-package", "page-index"];

describe("plumbline bench", () => {
  it("lists every benchmark in its help, and in the root help's summary", async () => {
    const help = await runCli(["bench", "--help"]);
    expect(help.code).toBe(0);
    for (const name of ALL) expect(help.stdout).toMatch(new RegExp(`^    ${name} `, "m"));
    const root = await runCli(["--help"]);
    expect(root.stdout).toMatch(/^ {2}bench +benchmarks: .*deepcrawl, S3 store, page index$/m);
  });

  it("refuses no benchmark, an unknown one, and a reference benchmark named after its options, with exit 2", async () => {
    const none = await runCli(["bench"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: plumbline bench <benchmark>/);
    const unknown = await runCli(["bench", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`unknown benchmark "nope"; known: ${ALL.join(", ")}`);
    const late = await runCli(["bench", "--pages", "5", "page-index"]);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/name the benchmark first: plumbline bench page-index/);
  });

  it("hands the load benchmarks their arguments unchanged", async () => {
    const run = await runCli(["bench", "mock-search", "--rounds", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--rounds takes 1\.\.10/);
    const first = await runCli(["bench", "--rounds", "0", "mock-search"]);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/--rounds takes 1\.\.10/);
  });
});
