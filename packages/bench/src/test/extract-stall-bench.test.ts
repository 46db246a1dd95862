// `plumbline bench extract-stall` end to end, one round: every hostile case ran, each refusal is the 502 it should
// be and took nothing, each answer was charged as any answer, /health was sampled, and the exit code is the
// verdict the result states. No speed is judged (whether /health stayed under 1 s depends on the machine).
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../test-support/cli-process.ts";
import type { ExtractStallResult } from "../extract-stall-bench.ts";

describe("bench extract-stall", () => {
  it("sends every hostile page once and reports what each call answered and took", async () => {
    const run = await runCli(["bench", "extract-stall", "--rounds", "1", "--json"]);
    expect([0, 1], run.stderr).toContain(run.code);
    const r = JSON.parse(run.stdout) as ExtractStallResult;
    expect(run.code).toBe(r.ok ? 0 : 1);
    expect(r.idle.samples).toBeGreaterThan(0);
    const byName = Object.fromEntries(r.cases.map((c) => [`${c.operation} ${c.name}`, c]));
    for (const name of [
      "/extract 100,000 nested divs",
      "/extract 200,000 unclosed divs",
      "/crawl 100,000 nested divs",
      "/trending 100,000 nested divs (GitHub)",
    ]) {
      expect(byName[name], name).toMatchObject({ statuses: [502], credits: 0, ledgerRows: 0, refusedCharged: false });
    }
    for (const name of ["/extract a 4.5 MB attribute", "/extract 20,000 sibling lists"])
      expect(byName[name], name).toMatchObject({ statuses: [200], credits: 10, ledgerRows: 1 });
    for (const name of ["/sitemap 200,000 nested <url>s", "/sitemap 100,000 nested divs (all)"])
      expect(byName[name], name).toMatchObject({ statuses: [200], credits: 1, ledgerRows: 1 });
    // 100,000 Atom entries parse within the pool's caps: its time cap is the worker's CPU time (D-parse-limits), so
    // a loaded machine does not refuse them
    expect(byName["/search an arXiv answer of 100,000 entries"]).toMatchObject({ statuses: [200], ledgerRows: 1 });
    for (const c of r.cases) expect(c.healthMaxMs).toBeGreaterThanOrEqual(c.healthP99Ms);
  }, 120_000);
});
