// `plumbline fuzz --contract live` against the mock serving the live contract (D-live-version): /ask and /feedback
// fuzzed from the live document, valid and invalid input and the stateful model, and nothing found. The seed's
// fuzzer knows neither operation.
import { loadContract } from "@plumbline-kit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFuzz } from "../run-fuzz.ts";
import { MOCK_ARGS, MOCK_KEY, type MockProcess, startMockProcess } from "./mock-process.ts";

let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess([...MOCK_ARGS, "--contract", "live"]);
}, 60_000);
afterAll(() => mock?.stop());

describe("fuzz --contract live against the live mock", () => {
  it("finds nothing in /ask and /feedback over fixed seeds (bodies not JSON 415, bodies past 16 KiB 413)", async () => {
    for (const seed of [3, 11, 13]) {
      const r = await runFuzz({
        target: mock.url,
        apiKey: MOCK_KEY,
        contractVersion: "live",
        operations: ["ask", "feedback"],
        seed,
        runs: 120,
        reportDir: null,
        corpusDir: null,
      });
      expect(
        r.report.properties.filter((p) => !p.passed).map((p) => p.property),
        `seed ${seed}`,
      ).toEqual([]);
      // both operations were fuzzed, with answers of every kind they give
      const fuzzed = r.report.properties.flatMap((p) => Object.keys(p.byOperation));
      expect(fuzzed, `seed ${seed}`).toEqual(expect.arrayContaining(["ask", "feedback"]));
      expect(r.exitCode, `seed ${seed}`).toBe(0);
    }
  }, 120_000);

  it("refuses /ask as an unknown operation under the seed", async () => {
    expect((await loadContract()).findOperation("ask")).toBeUndefined();
    const r = await runFuzz({ target: mock.url, apiKey: MOCK_KEY, operations: ["ask"], runs: 1, reportDir: null });
    expect(r.exitCode).toBe(2);
  });
});
