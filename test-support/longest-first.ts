// Vitest's file order for a fresh clone: longest first, by the durations of a committed earlier run
// (test-support/test-durations.json), as pytest-split and Knapsack do. Vitest's own order needs its cache, which a
// fresh clone lacks, and then falls back to file size: a short file that runs for two minutes (a gate run paced to
// a rate limit) would start last and end the suite alone. With the longest files first, the two workers finish
// together. A file missing from the list counts as the median; re-record the list after adding slow tests:
//   npx vitest run --reporter=json --outputFile.json=reports/vitest.json && \
//     node test-support/record-test-durations.js reports/vitest.json
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const DURATIONS_FILE = new URL("./test-durations.json", import.meta.url);

export function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, "utf8")).seconds ?? {};
  } catch {
    return {};
  }
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const known = Object.values(durations).sort((a, b) => a - b);
    const median = known.length ? known[Math.floor(known.length / 2)] : 0;
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) => durations[relative(root, f.moduleId)] ?? median;
    // the base order (failed first with a cache, else larger files first) breaks ties
    const base = await super.sort(files);
    const rank = new Map(base.map((f, i) => [f, i]));
    return [...files].sort((a, b) => seconds(b) - seconds(a) || (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  }
}
