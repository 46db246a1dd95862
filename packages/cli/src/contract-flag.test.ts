// `--contract seed|live` (D-live-version): the commands that serve or judge the contract take it, with the seed as
// the default and nothing else accepted (exit 2, naming the flag).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type CapturedProgram, capturedProgram } from "../../../tools/cli-docs.ts";
import { main } from "./cli.js";
import { commandPath, HELP_WIDTH } from "./command-kit.js";

let tree: CapturedProgram;
beforeAll(async () => {
  tree = await capturedProgram();
});

async function inProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    writeOut: (t) => {
      out += t;
    },
    writeErr: (t) => {
      err += t;
    },
    width: HELP_WIDTH,
  });
  return { code, out, err };
}

const COMMANDS = ["mock", "reference", "conform", "fuzz", "load", "gate", "proxy"];

describe("--contract", () => {
  it("is declared on mock, reference, conform, fuzz, load, gate and proxy with seed as the default and seed|live as choices", () => {
    for (const name of [...COMMANDS, "spec summary", "spec types", "spec decisions"]) {
      const cmd = tree.commands.find((c) => commandPath(c) === `plumbline ${name}`);
      const option = cmd?.options.find((o) => o.long === "--contract");
      expect(option, name).toBeDefined();
      expect([option?.defaultValue, option?.argChoices], name).toEqual(["seed", ["seed", "live"]]);
    }
  });

  it("refuses any other version as bad usage (exit 2), naming the flag and the choices", async () => {
    for (const name of COMMANDS) {
      const r = await inProcess([name, "--contract", "beta"]);
      expect(r.code, name).toBe(2);
      expect(r.err, name).toContain(
        `plumbline ${name}: option '--contract <version>' argument 'beta' is invalid. Allowed choices are seed, live.`,
      );
    }
  });

  it("refuses --contract beside --spec on mock and conform: one document at a time", async () => {
    for (const name of ["mock", "conform"]) {
      const r = await inProcess([name, "--contract", "live", "--spec", "openapi.yaml"]);
      expect([r.code, r.err.split("\n")[0]], name).toEqual([
        2,
        `plumbline ${name}: option '--contract <version>' cannot be used with option '--spec <file>'`,
      ]);
    }
  });

  it("lists the checks by the live contract with conform --contract live --list: one paid operation more", async () => {
    const listed = async (argv: string[]) => {
      const lines: string[] = [];
      const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
      try {
        expect((await inProcess(argv)).code).toBe(0);
      } finally {
        spy.mockRestore();
      }
      return lines.find((l) => l.startsWith("billing-price-per-operation "));
    };
    expect(await listed(["conform", "--list"])).toMatch(/ 8 operations /);
    expect(await listed(["conform", "--contract", "live", "--list"])).toMatch(/ 9 operations /);
  });
});
