// Every flag issue 27 added is described by its command's --help (generated from the definitions).
import { beforeAll, describe, expect, it } from "vitest";
import { type CapturedProgram, capturedProgram } from "../../../tools/cli-docs.ts";
import { commandPath } from "./command-kit.js";

let tree: CapturedProgram;
beforeAll(async () => {
  tree = await capturedProgram();
});

/** The help of `plumbline WORDS`, its lines joined (wrapping aside). */
function help(words: string): string {
  const cmd = tree.commands.find((c) => commandPath(c) === `plumbline ${words}`);
  if (!cmd) throw new Error(`no command plumbline ${words}`);
  return tree.helpOf(cmd).replace(/\s+/g, " ");
}

describe("--help describes the flags of issue 27", () => {
  it("plumbline conform", () => {
    for (const flag of ["--fixture-manifest <file>", "--fixture-log <file>", "--allow-skipped <kinds>"])
      expect(help("conform")).toContain(flag);
    for (const sub of ["serve-fixtures", "fixtures", "coverage"]) expect(help("conform")).toContain(` ${sub} `);
    for (const kind of ["fixture-unreachable", "fixture-manifest", "fixture-incomplete", "broke-key", "payment-key"])
      expect(help("conform")).toContain(kind);
    expect(help("conform")).toContain("--allow-private-network");
  });

  it("plumbline conform serve-fixtures and fixtures export", () => {
    for (const flag of ["--manifest <file>", "--log <file>", "--host <address>"])
      expect(help("conform serve-fixtures")).toContain(flag);
    for (const flag of ["--base-url <url>", "--no-sitemap-url <url>", "--conventional-url <url>"])
      expect(help("conform fixtures export")).toContain(flag);
    expect(help("conform fixtures export")).toContain("DIR/manifest.json");
  });

  it("plumbline load", () => {
    for (const flag of [
      "--rate-limit <limits>",
      "auto (default) learns them from the RateLimit headers",
      "N[,operation=M]",
      "--ignore-rate-limits",
      "--max-credits <n>",
    ])
      expect(help("load") + help("gate")).toContain(flag);
    expect(help("load")).toMatch(/throttling/);
  });

  it("plumbline gate", () => {
    for (const flag of [
      "--fixture-manifest",
      "--fixture-log",
      "--allow-skipped",
      "--rate-limit",
      "--ignore-rate-limits",
    ])
      expect(help("gate")).toContain(flag);
    expect(help("gate")).toMatch(/default: the key's balance/);
  });
});
