// docs/cli.md is what the commands' definitions render to (run `npm run docs:cli` after changing a command).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI_DOCS_PATH, renderCliDocs } from "./cli-docs.ts";

describe("docs/cli.md", () => {
  it("is up to date with the commands' definitions", async () => {
    expect(readFileSync(CLI_DOCS_PATH, "utf8"), "docs/cli.md is stale: run `npm run docs:cli`").toBe(
      await renderCliDocs(),
    );
  });
});
