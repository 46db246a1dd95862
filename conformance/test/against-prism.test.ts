// The suite against `prism mock spec/openapi.yaml` (issue 4): Prism validates and answers examples but keeps no
// state, and the suite must say so: billing, batch and deepcrawl checks fail while Prism's stateless answers pass
// the schema checks.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../index.ts";
import type { ConformanceResult } from "../types.ts";

const PRISM = fileURLToPath(new URL("../../node_modules/.bin/prism", import.meta.url));
const SPEC = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));
let prism: ChildProcess;
let result: ConformanceResult;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  prism = spawn(PRISM, ["mock", SPEC, "-p", String(port), "-h", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${log}`)), 60_000);
    prism.stdout?.on("data", (d) => {
      log += d;
      if (log.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    prism.on("exit", (code) => reject(new Error(`prism exited with ${code}:\n${log}`)));
  });
  result = await runConformance({
    target: `http://127.0.0.1:${port}`,
    apiKey: "any-key",
    only: [
      "billing-price-per-operation",
      "batch-entries-match-request",
      "batch-summary-arithmetic",
      "deepcrawl-completes",
      "deepcrawl-unknown-id-404",
      "response-status-listed",
      "health-status-version",
    ],
    timeoutSeconds: 3,
    reportDir: null,
  });
}, 120_000);

afterAll(() => {
  prism?.kill("SIGTERM");
});

describe("the suite against Prism's stateless mock", () => {
  it("reports its statelessness: billing, batches and deepcrawl fail", () => {
    const failed = result.checks.filter((c) => c.status === "failed").map((c) => c.id);
    expect(failed).toEqual(
      expect.arrayContaining([
        "billing-price-per-operation",
        "batch-entries-match-request",
        "deepcrawl-completes",
        "deepcrawl-unknown-id-404",
      ]),
    );
    expect(result.exitCode).toBe(1);
  });

  it("does not blame it for what it does right", () => {
    const passed = result.checks.filter((c) => c.status === "passed").map((c) => c.id);
    expect(passed).toEqual(expect.arrayContaining(["response-status-listed", "health-status-version"]));
  });
});
