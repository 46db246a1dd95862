// "Product folders hold product code; test glue, fixture sites and stand-ins live beside their tests or in
// test-support/" and "nothing in a product folder imports test-support/" (issue 25): a guard over the repository's
// sources (git ls-files, new files too). Test code is a *.test.ts file or anything in a folder named test/; the
// package's root entries count as product; bench/ (benchmarks that run on test glue) is neither. A file names
// another with any relative string literal (import, import(), new URL(…, import.meta.url), a spawned script),
// resolved against itself; a file in a product folder that only test code names is test glue in the wrong place.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PRODUCT = /^(reference|mock|spec|conformance|fuzz|load|gate|client|proxy|bin)\//;
const ROOT_ENTRIES = new Set(["index.ts", "index.js", "msw.js"]);
const isTest = (f: string) => /\.test\.ts$/.test(f) || /(^|\/)test\//.test(f);
const isProduct = (f: string) => (PRODUCT.test(f) || ROOT_ENTRIES.has(f)) && !isTest(f);

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => /\.(ts|js|mjs|cjs)$/.test(f) && existsSync(join(ROOT, f)));
const known = new Set(files);

/** The repository files a source file names with a relative path (`./x.ts`, `../y/z.ts`). */
function namedIn(file: string, text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/["'`](\.{1,2}\/[^"'`\s$]*)["'`]/g)) {
    const path = posix.normalize(posix.join(dirname(file), m[1]));
    const candidates = [path, path.replace(/\.js$/, ".ts"), `${path}.ts`, `${path}/index.ts`];
    out.add(candidates.find((c) => known.has(c)) ?? path);
  }
  return [...out];
}

const named = (file: string) => namedIn(file, readFileSync(join(ROOT, file), "utf8"));

/** Paths into test-support/ a file names: resolved relative paths, and any string naming test-support/ (a path
 * relative to the working directory, as a spawned `-e` script would take it). */
function testSupportNamedIn(file: string, text: string): string[] {
  const literal = [...text.matchAll(/["'`][^"'`\n]*\btest-support\/[^"'`\n]*["'`]/g)].map((m) => m[0]);
  return [...namedIn(file, text).filter((p) => p.startsWith("test-support/")), ...literal];
}

describe("product code and test glue", () => {
  it("scans the repository's sources", () => {
    expect(files.filter(isProduct).length).toBeGreaterThan(300);
  });

  it("no product file imports test-support/", () => {
    const offenders = files
      .filter(isProduct)
      .flatMap((f) => testSupportNamedIn(f, readFileSync(join(ROOT, f), "utf8")).map((p) => `${f} -> ${p}`));
    expect(offenders).toEqual([]);
  });

  it("no file in a product folder is test glue: each one some non-test code uses is named by non-test code", () => {
    const namers = new Map<string, string[]>();
    for (const f of files) for (const p of named(f)) namers.set(p, [...(namers.get(p) ?? []), f]);
    // a file nothing names is an entry point (bin/plumbline.js, a worker thread's script, a declaration file)
    const offenders = files
      .filter(isProduct)
      .filter((f) => (namers.get(f) ?? []).length > 0 && (namers.get(f) ?? []).every(isTest))
      .map((f) => `${f} (only named by ${namers.get(f)?.join(", ")})`);
    expect(offenders).toEqual([]);
  });

  it("sees every way a file names another, and tells test code from product code", () => {
    const planted = [
      'import { startS3StandIn } from "../../test-support/s3-stand-in.ts";',
      "const site = await import('../../test-support/deepcrawl-site.ts');",
      'const url = new URL("../../test-support/postgres-schema.ts", import.meta.url);',
      'import type { Route } from "../test/fixture-site.ts";',
    ].join("\n");
    expect(namedIn("reference/deepcrawl/planted.ts", planted).sort()).toEqual([
      "reference/test/fixture-site.ts",
      "test-support/deepcrawl-site.ts",
      "test-support/postgres-schema.ts",
      "test-support/s3-stand-in.ts",
    ]);
    const spawned = `spawn(process.execPath, ["-e", 'import("./test-support/s3-stand-in.ts")'])`;
    expect(testSupportNamedIn("reference/deepcrawl/planted.ts", spawned)).toEqual(['"./test-support/s3-stand-in.ts"']);
    const comment = "// checked by test-support/package-entry.test.ts";
    expect(testSupportNamedIn("reference/deepcrawl/planted.ts", comment)).toEqual([]);
    expect(isProduct("reference/deepcrawl/planted.ts")).toBe(true);
    expect(isProduct("index.ts")).toBe(true);
    expect(isProduct("reference/test/fixture-site.ts")).toBe(false);
    expect(isProduct("reference/deepcrawl/deepcrawl.test.ts")).toBe(false);
    expect(isProduct("bench/deepcrawl-bench.ts")).toBe(false);
  });
});
