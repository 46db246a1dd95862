// `plumbline gate --reporter github` (the default when GITHUB_ACTIONS=true): one ::error per failing case of a
// stage (a check, a property, a threshold: what its JUnit file fails) and per stage that could not run.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../../test-support/cli-process.ts";
import { gateAnnotations } from "../gate-annotations.ts";
import type { GateResult } from "../gate-types.ts";

const annotations = (out: string) => out.split("\n").filter((l) => /^::(error|warning|notice)\b/.test(l));

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe("plumbline gate --reporter github", () => {
  it("annotates a stage that could not run, by default under GitHub Actions; not with --reporter text", {
    timeout: 120_000,
  }, async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const args = [
      "gate",
      "--target",
      target,
      "--api-key",
      "GATE",
      "--wait-for-target",
      "0",
      "--stages",
      "conform",
      "--no-report",
    ];
    const r = await runCli(args, { env: { GITHUB_ACTIONS: "true" } });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const lines = annotations(r.stdout);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const l of lines)
      expect(l).toMatch(/^::error title=(gate \w+ could not run|plumbline gate could not run)::.+/);
    const text = await runCli([...args, "--reporter", "text"], { env: { GITHUB_ACTIONS: "true" } });
    expect(text.code).toBe(2);
    expect(annotations(text.stdout)).toEqual([]);
  });

  it("gives one annotation per failing case, its failure's first line and how many more, and none for a pass", () => {
    const result: GateResult = {
      exitCode: 1,
      target: "http://127.0.0.1:1",
      startedAt: "2026-11-28T00:00:00Z",
      seconds: 12,
      budgetCredits: null,
      creditsSpent: 3,
      reportDir: null,
      stages: [
        {
          stage: "conform",
          exitCode: 1,
          seconds: 5,
          creditsSpent: 3,
          report: null,
          summary: "1 passed, 1 failed",
          cases: [
            {
              id: "x-request-id",
              group: "conform.x",
              status: "failed",
              durationMs: 0,
              message: "GET /health: no x-request-id",
              details: "GET /health: no x-request-id\nPOST /search: none either",
            },
            { id: "search-echo", group: "conform.search", status: "passed", durationMs: 0 },
          ],
        },
        {
          stage: "load",
          exitCode: 1,
          seconds: 5,
          creditsSpent: 0,
          report: null,
          summary: "",
          cases: [
            {
              id: "p99 < 500 ms",
              group: "load.thresholds",
              status: "failed",
              durationMs: 0,
              message: "p99 was 812 ms, over 500",
            },
          ],
        },
      ],
    };
    expect(gateAnnotations(result)).toEqual([
      {
        level: "error",
        title: "gate conform: x-request-id",
        message: "GET /health: no x-request-id (and 1 more in the report)",
      },
      { level: "error", title: "gate load: p99 < 500 ms", message: "p99 was 812 ms, over 500" },
    ]);
  });
});
