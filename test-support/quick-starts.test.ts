// The Vitest quick start is a file of examples/, shown whole, which npm test runs: a block whose info string names
// a file must be that file. (The shell quick starts and CI recipes run as written in docs-recipes.test.ts.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationFiles, ROOT, readPage } from "./markdown.ts";

const pages = documentationFiles()
  .filter((f) => f === "README.md" || f.startsWith("docs/"))
  .map(readPage);
const shown = pages.flatMap((p) =>
  p.blocks.filter((b) => /^\w+\s+\S+\.\w+$/.test(b.info)).map((b) => ({ file: p.file, block: b })),
);

describe("the code shown as a file", () => {
  it("is the file, which npm test runs", () => {
    expect(shown.length).toBeGreaterThanOrEqual(1);
    for (const { file, block } of shown) {
      const path = block.info.split(/\s+/)[1];
      expect(`${block.text}\n`, `${file}:${block.line} shows ${path}`).toBe(readFileSync(join(ROOT, path), "utf8"));
      expect(path, "a test file, which npm test runs").toMatch(/\.test\.ts$/);
    }
  });
});
