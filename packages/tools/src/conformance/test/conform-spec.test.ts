// Behavioural compatibility across versions of the contract: `plumbline conform --spec FILE` judges a target by
// another version of the document. With a second version (the current spec plus POST /images and search_service
// `naver`, test-support/evolved-spec.ts): the mock serving it passes that version's suite; it still passes the
// current one (clients of the older contract keep working against the newer implementation); and the mock serving
// the current contract fails the newer suite exactly where the document moved on.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plumblineInProcess } from "../../../../../test-support/cli-in-process.ts";
import { ADDED_SEARCH_SERVICE, writeEvolvedSpec } from "../../../../../test-support/evolved-spec.ts";
import { type MockProcess, startMockProcess } from "../../../../../test-support/mock-process.ts";
import { runConformance } from "../index.ts";

const MOCK_ARGS = ["--key", "KEY:10000000", "--key", "BROKE:0", "--deepcrawl-steps", "0,0,200", "--rate-limit", "0"];
// the operations the two versions differ in, and one they share; health, usage and discovery always come along
const OPERATIONS = "search,images,crawl";

let evolved: string;
let newer: MockProcess;
let older: MockProcess;

// the command's parsing, printing and exit codes through the dispatcher in process (against-mock.test.ts runs it as a
// child process): no other Node loading and compiling the evolved document again
const conform = (args: string[]) => plumblineInProcess(["conform", ...args]);

beforeAll(async () => {
  evolved = writeEvolvedSpec();
  [newer, older] = await Promise.all([
    startMockProcess([...MOCK_ARGS, "--spec", evolved]),
    startMockProcess(MOCK_ARGS),
  ]);
});
afterAll(async () => {
  await Promise.all([newer?.stop(), older?.stop()]);
});

describe("plumbline conform --spec", () => {
  it("the newer document's suite passes against the mock serving it (mock --spec), its added operation included", async () => {
    const { code, out } = await conform([
      "--spec",
      evolved,
      "--target",
      newer.url,
      "--api-key",
      "KEY",
      "--broke-api-key",
      "BROKE",
      "--operations",
      OPERATIONS,
      "--no-report",
    ]);
    expect(code, out).toBe(0);
    // the added operation is planned, priced (2 credits a call) and its bound cases are sent
    expect(out).toMatch(/^plan: .*\(operations search, images, crawl;/m);
    expect(out).toMatch(/^ {2}images +at most \d+ credits; bound cases: \d+ in \d+ requests/m);
    expect(out).toMatch(/^ {2}bound cases of images: \d+ cases in \d+ requests/m);
    expect(out).toMatch(/^PASSED: \d+ passed, 0 failed/m);
  }, 120_000);

  it("clients of the older contract still work: its suite passes against the newer implementation", async () => {
    // every check of the older document passes but one: the MCP tool list must carry the document's input schemas
    // exactly (D-mcp-tools), and the newer search schema has one more search_service value. An additive
    // difference an MCP client of the older contract does not notice, reported as what it is (docs/spec-diff.md).
    // So the whole suite runs once, without that check (`without`, below: every other check passes), and that check
    // runs alone here
    const r = await runConformance({
      target: newer.url,
      apiKey: "KEY",
      brokeApiKey: "BROKE",
      operations: ["search", "crawl"],
      only: ["mcp-tools-list"],
      reportDir: null,
    });
    const failed = r.checks.filter((c) => c.status === "failed");
    expect(failed.map((c) => c.id)).toEqual(["mcp-tools-list"]);
    expect(failed[0].failures[0]?.message).toBe("search: the input schema differs from the document's");
    expect(failed[0].failures[0]?.actual).toContain(`"${ADDED_SEARCH_SERVICE}"`);
    const without = await runConformance({
      target: newer.url,
      apiKey: "KEY",
      brokeApiKey: "BROKE",
      operations: ["search", "crawl"],
      skip: ["mcp-tools-list"],
      reportDir: null,
    });
    expect(without.exitCode).toBe(0);
    expect(without.summary.passed).toBeGreaterThan(20);
  }, 120_000);

  it("the newer suite fails against the mock of the older contract, on the added operation and enum value", async () => {
    const r = await runConformance({
      spec: evolved,
      target: older.url,
      apiKey: "KEY",
      brokeApiKey: "BROKE",
      operations: OPERATIONS.split(","),
      reportDir: null,
    });
    expect(r.exitCode).toBe(1);
    const failed = r.checks.filter((c) => c.status === "failed");
    const text = JSON.stringify(failed);
    expect(text).toContain("/images");
    expect(text).toContain(ADDED_SEARCH_SERVICE);
  }, 120_000);

  it("a document that does not load is a run that cannot proceed (exit 2)", async () => {
    const { code, out } = await conform(["--spec", "no-such.yaml", "--target", newer.url, "--api-key", "KEY"]);
    expect(code).toBe(2);
    expect(out).toMatch(/could not run: the document no-such\.yaml does not load: .*ENOENT/);
  }, 60_000);
});
