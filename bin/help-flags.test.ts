// Every flag issue 27 added is described by its command's --help (the help texts are the commands' manual).
import { describe, expect, it } from "vitest";
import { CONFORM_HELP } from "../conformance/cli.ts";
import { FIXTURES_HELP } from "../conformance/fixtures/serve-fixtures.ts";
import { GATE_HELP } from "../gate/cli.ts";
import { LOAD_HELP } from "../load/cli.ts";

describe("--help describes the flags of issue 27", () => {
  it("plumbline conform", () => {
    for (const flag of ["--fixture-manifest", "--fixture-log", "--allow-skipped", "fixtures export", "serve-fixtures"])
      expect(CONFORM_HELP).toContain(flag);
    for (const kind of ["fixture-unreachable", "fixture-manifest", "fixture-incomplete", "broke-key", "payment-key"])
      expect(CONFORM_HELP).toContain(kind);
    expect(CONFORM_HELP).toContain("--allow-private-network");
  });

  it("plumbline conform serve-fixtures and fixtures export", () => {
    for (const flag of [
      "--manifest FILE",
      "--log FILE",
      "--host",
      "--base-url",
      "--no-sitemap-url",
      "--conventional-url",
    ])
      expect(FIXTURES_HELP).toContain(flag);
    expect(FIXTURES_HELP).toContain("DIR/manifest.json");
  });

  it("plumbline load", () => {
    for (const flag of ["--rate-limit auto|N[,operation=M]", "--ignore-rate-limits", "--max-credits N"])
      expect(LOAD_HELP).toContain(flag);
    expect(LOAD_HELP).toMatch(/throttling/);
  });

  it("plumbline gate", () => {
    for (const flag of [
      "--fixture-manifest",
      "--fixture-log",
      "--allow-skipped",
      "--rate-limit",
      "--ignore-rate-limits",
    ])
      expect(GATE_HELP).toContain(flag);
    expect(GATE_HELP).toMatch(/default: the key's balance/);
  });
});
