#!/usr/bin/env node
// Writes test-support/test-durations.json from a Vitest JSON report (--reporter=json --outputFile.json=FILE): each
// test file's seconds, rounded, for the longest-first order of a fresh clone (longest-first.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const [report] = process.argv.slice(2);
if (!report) {
  console.error("usage: node test-support/record-test-durations.js VITEST_JSON_REPORT");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const { testResults } = JSON.parse(readFileSync(report, "utf8"));
const seconds = Object.fromEntries(
  testResults
    .map((f) => [relative(root, f.name), Math.round((f.endTime - f.startTime) / 100) / 10])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
);
const out = fileURLToPath(new URL("./test-durations.json", import.meta.url));
writeFileSync(
  out,
  `${JSON.stringify({ $comment: "seconds per test file of one full run (test-support/longest-first.ts)", seconds }, null, 2)}\n`,
);
console.log(`wrote ${Object.keys(seconds).length} files to ${relative(process.cwd(), out)}`);
