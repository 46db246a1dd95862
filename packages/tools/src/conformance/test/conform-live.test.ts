// `plumbline conform --contract live` (D-live-version): the live contract's suite passes against the mock serving
// it (`mock --contract live`), /ask and /feedback included, and fails the mock of the seed exactly on the two
// operations the live version adds (404 there); the seed's suite against the live mock fails only where the live
// version moved on (its version string, sogou, the MCP input schemas of search and crawl) and never plans the checks
// of /ask and /feedback.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliOutput } from "../../../../../test-support/cli-process.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";
import { REPORT_FILES } from "../report/write-reports.ts";
import type { ConformanceResult } from "../types.ts";

const MOCK_ARGS = ["--key", "KEY:10000000", "--key", "BROKE:0", "--deepcrawl-steps", "0,0,200", "--rate-limit", "0"];

let live: MockProcess;
let seed: MockProcess;

const conform = (args: string[]) => runCliOutput(["conform", ...args]);

beforeAll(async () => {
  [live, seed] = await Promise.all([
    startMockProcess([...MOCK_ARGS, "--contract", "live"]),
    startMockProcess(MOCK_ARGS),
  ]);
});
afterAll(async () => {
  await Promise.all([live?.stop(), seed?.stop()]);
});

describe("plumbline conform --contract live", () => {
  it("passes every check against the mock serving the live contract, /ask and /feedback planned and judged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plb-conform-live-"));
    const { code, out } = await conform([
      "--contract",
      "live",
      "--target",
      live.url,
      "--api-key",
      "KEY",
      "--broke-api-key",
      "BROKE",
      "--payment-method",
      "test",
      "--payment-key",
      "plumbline-demo-payment-key",
      "--report-dir",
      dir,
    ]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/^ {2}ask +at most \d+ credits; bound cases: \d+ in \d+ requests/m);
    expect(out).toMatch(/^ {2}bound cases of feedback: \d+ cases in \d+ requests/m);
    const record = JSON.parse(readFileSync(join(dir, REPORT_FILES.json), "utf8")) as ConformanceResult;
    expect(record.summary.failed).toBe(0);
    const billing = record.checks.find((c) => c.id === "billing-price-per-operation");
    expect(billing?.status).toBe("passed");
    const payment = record.checks.find((c) => c.id === "payment-receipt");
    expect(payment?.status).toBe("passed");
    // the checks of /ask and /feedback ran and passed, the mock's steering used (an engine and the store made to
    // fail); the eleventh report is not judged against a mock started with --rate-limit 0 (it limits nothing)
    const added = record.checks.filter((c) => /^(ask|feedback)-/.test(c.id)).map((c) => [c.id, c.status]);
    expect(added).toEqual([
      ["ask-intent-phrases", "passed"],
      ["ask-charged", "passed"],
      ["ask-engine-failures", "passed"],
      ["feedback-stored", "passed"],
      ["feedback-limits", "passed"],
      ["feedback-rate-limit", "skipped"],
      ["ask-relevance-order", "passed"],
      ["feedback-no-echo", "passed"],
    ]);
  }, 180_000);

  it("fails the mock of the seed on /ask and /feedback, which it answers 404", async () => {
    const r = await runConformance({
      contractVersion: "live",
      target: seed.url,
      apiKey: "KEY",
      brokeApiKey: "BROKE",
      operations: ["ask", "feedback"],
      reportDir: null,
    });
    expect(r.exitCode).toBe(1);
    const messages = r.checks.flatMap((c) => c.failures.map((f) => `${c.id}: ${f.message}`)).join("\n");
    expect(messages).toMatch(/ask/);
    expect(messages).toMatch(/404/);
  }, 120_000);

  it("the seed's suite against the live mock fails only where the live version moved on", async () => {
    const r = await runConformance({
      target: live.url,
      apiKey: "KEY",
      brokeApiKey: "BROKE",
      operations: ["search", "crawl"],
      reportDir: null,
    });
    const failed = r.checks.filter((c) => c.status === "failed");
    // exactly where the live version moved on: its version (1.0.0+live) in /openapi.json and /health, the MCP
    // input schemas of search (no sogou) and crawl (enable_fallback), and sogou refused (D-search-engine-values)
    expect(failed.map((c) => [c.id, c.failures.map((f) => f.message)])).toEqual([
      ["discovery-openapi-json", ["info.version differs from the interface version"]],
      ["health-status-version", ["unexpected health body"]],
      [
        "mcp-tools-list",
        ["search: the input schema differs from the document's", "crawl: the input schema differs from the document's"],
      ],
      [
        "bounds-decided-values-accepted",
        [`search: /search_service = "sogou" was refused (D-search-engine-values: the service's own client sends it)`],
      ],
    ]);
    expect(r.summary.passed).toBeGreaterThan(20);
    // the checks of the live version's operations are not the seed's: not planned, not listed, not counted
    expect(r.checks.filter((c) => /^(ask|feedback)-/.test(c.id))).toEqual([]);
    // and one named on purpose under the seed says why it cannot run, before any request
    const named = await runConformance({ target: seed.url, apiKey: "KEY", reportDir: null, only: ["ask-charged"] });
    expect(named).toMatchObject({
      exitCode: 2,
      error: expect.stringMatching(/ask-charged judge operations this contract does not have \(ask\).*--contract live/),
    });
    expect(named.exchanges).toEqual([]);
  }, 120_000);
});
