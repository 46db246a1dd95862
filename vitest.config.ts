import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "reports/**"],
    // hang detectors, not speed budgets: a test that passes never comes near them, on a fast machine or a loaded one
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Most test files wait on servers, child processes and Chromium rather than compute: a worker per core, not
    // Vitest's default of one per core but one (a single worker on CI's two cores ran 600 s of waiting in a row).
    // No test may depend on having the machine to itself (issue 25).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
