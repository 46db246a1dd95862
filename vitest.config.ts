import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "reports/**"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Most test files wait on servers, child processes and Chromium rather than compute: a worker per core, not
    // Vitest's default of one per core but one (a single worker on CI's two cores ran 600 s of waiting in a row).
    // No test may depend on having the machine to itself (issue 25).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
