// `plumbline bench` itself: its help names every benchmark, the root help names bench, a name it does not know or
// an option another benchmark takes is refused with exit 2, and each benchmark checks its own options.
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../test-support/cli-process.ts";

const ALL = [
  "mock-search",
  "crawl-quality",
  "crawl-load",
  "screenshot",
  "deepcrawl",
  "s3-package",
  "page-index",
  "crash",
  "extract-stall",
  "mock-soak",
  "reliability",
];

describe("plumbline bench", () => {
  it("lists every benchmark in its help, and bench in the root help", async () => {
    const help = await runCli(["bench", "--help"]);
    expect(help.code).toBe(0);
    for (const name of ALL) expect(help.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, "m"));
    const root = await runCli(["--help"]);
    expect(root.stdout).toMatch(/^ {2}bench +benchmarks of the mock, the reference and its parts/m);
  });

  it("refuses no benchmark, an unknown one, and an option of another benchmark, with exit 2", async () => {
    const none = await runCli(["bench"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: plumbline bench \[options\] \[command\]/);
    const unknown = await runCli(["bench", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("plumbline bench: unknown command 'nope'");
    // mock-search and screenshot once shared one options object: each now takes only its own
    const foreign = await runCli(["bench", "mock-search", "--gap-ms", "5"]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain("plumbline bench mock-search: unknown option '--gap-ms'");
  });

  it("refuses a value out of a benchmark's range, naming the option and the range", async () => {
    const run = await runCli(["bench", "mock-search", "--rounds", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("option '--rounds <n>' argument '0' is invalid. Expected a whole number 1..10.");
    // the soak's baseline must come before its end; refused before the mock is started
    const soak = await runCli(["bench", "mock-soak", "--minutes", "1", "--warm-up", "60"]);
    expect(soak.code).toBe(2);
    expect(soak.stderr).toContain("--warm-up must be less than the run (--minutes)");
    // the same for the soak of the reliability run, refused before its first case starts
    const all = await runCli(["bench", "reliability", "--soak-minutes", "2", "--soak-warm-up", "120"]);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain("--soak-warm-up must be less than the soak (--soak-minutes)");
    expect(all.stderr).not.toContain("crash…");
  });
});
