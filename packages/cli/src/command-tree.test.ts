// Every `plumbline` command and subcommand, walked from the program's definitions: its --help (and -h) exits 0,
// prints what the definition gives, lists exactly the options the command accepts with their descriptions,
// defaults, choices and environment variables, and opens or creates nothing; an unknown option is bad usage
// (exit 2) named by the command. In this process through main(), as `plumbline` runs it; a few in a child process
// too, from an empty folder, the way a user first tries them.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../test-support/cli-process.ts";
import { type CapturedProgram, capturedProgram } from "../../../tools/cli-docs.ts";
import { main } from "./cli.js";
import { type CommandUnknownOpts, commandPath, HELP_WIDTH } from "./command-kit.js";

let tree: CapturedProgram;
let empty: string;

beforeAll(async () => {
  tree = await capturedProgram();
  empty = mkdtempSync(join(tmpdir(), "plumbline-help-"));
});
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const words = (cmd: CommandUnknownOpts) => commandPath(cmd).split(" ").slice(1);

/** `plumbline ARGV` in this process, in the empty folder: its exit code and everything it printed. */
async function inProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const cwd = process.cwd();
  process.chdir(empty);
  try {
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
  } finally {
    process.chdir(cwd);
  }
}

/** The long flags a help text lists in its option sections. */
function listedFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z][\w-]*)/gm)].map((m) => m[1]);
}

const squash = (s: string) => s.replace(/\s+/g, " ");

describe("the command tree", () => {
  it("has every command of the root help, each with a summary", () => {
    const roots = tree.program.commands.map((c) => c.name());
    expect(roots).toEqual(["mock", "edges", "conform", "fuzz", "load", "gate", "proxy", "reference", "bench", "spec"]);
    for (const cmd of tree.commands.filter((c) => c.parent)) expect(cmd.summary() || cmd.description()).not.toBe("");
  });

  it("answers --help and -h on every command with exit 0, the help its definition gives, in a folder it leaves empty", async () => {
    for (const cmd of tree.commands) {
      const expected = tree.helpOf(cmd);
      for (const flag of ["--help", "-h"]) {
        const r = await inProcess([...words(cmd), flag]);
        expect([r.code, r.err], `${commandPath(cmd)} ${flag}`).toEqual([0, ""]);
        expect(r.out, `${commandPath(cmd)} ${flag}`).toBe(expected);
      }
    }
    expect(readdirSync(empty)).toEqual([]);
  });

  it("lists exactly the options each command accepts, with their descriptions, defaults, choices and variables", () => {
    for (const cmd of tree.commands) {
      const help = tree.helpOf(cmd);
      const declared = cmd.options.filter((o) => !o.hidden).map((o) => o.long as string);
      const expected = [...declared, "--help"];
      expect(listedFlags(help).sort(), commandPath(cmd)).toEqual(expected.sort());
      expect(help, commandPath(cmd)).toMatch(new RegExp(`^Usage: ${commandPath(cmd)} `));
      for (const o of cmd.options) {
        expect(o.description.length, `${commandPath(cmd)} ${o.long} has a description`).toBeGreaterThan(10);
        const shown = squash(help);
        expect(shown, `${commandPath(cmd)} ${o.long}`).toContain(squash(o.description));
        if (o.envVar) expect(shown, `${commandPath(cmd)} ${o.long}`).toContain(`env: ${o.envVar}`);
        if (o.argChoices) expect(shown, `${commandPath(cmd)} ${o.long}`).toContain(`choices: "${o.argChoices[0]}"`);
        if (o.defaultValue !== undefined && o.required && !o.negate)
          expect(shown, `${commandPath(cmd)} ${o.long}`).toContain(`default: ${JSON.stringify(o.defaultValue)}`);
      }
      for (const sub of cmd.commands) expect(help, commandPath(sub)).toMatch(new RegExp(`^ {2}${sub.name()}\\b`, "m"));
    }
  });

  it("refuses an unknown option on every command with exit 2, naming the command and its help", async () => {
    for (const cmd of tree.commands) {
      const r = await inProcess([...words(cmd), "--no-such-option"]);
      expect(r.code, commandPath(cmd)).toBe(2);
      // named by the command (or its default subcommand: `spec` runs `spec summary`); commander checks a missing
      // mandatory option or argument first
      expect(r.err.startsWith(commandPath(cmd)), `${commandPath(cmd)}: ${r.err}`).toBe(true);
      const needs = cmd.options.some((o) => o.mandatory) || cmd.registeredArguments.some((a) => a.required);
      if (!needs) expect(r.err, commandPath(cmd)).toContain(": unknown option '--no-such-option'");
      expect(r.err, commandPath(cmd)).toMatch(/\(plumbline[\w -]* --help lists what it takes\)\n$/);
    }
    expect(readdirSync(empty)).toEqual([]);
  });

  it("prints its version, and its help (exit 2, on stderr) when run with nothing", async () => {
    const version = await inProcess(["--version"]);
    expect(version).toEqual({ code: 0, out: `${tree.program.version()}\n`, err: "" });
    const none = await inProcess([]);
    expect(none.code).toBe(2);
    expect(none.err).toBe(tree.helpOf(tree.program));
  });
});

describe("--help from an empty folder, as a user first runs it", () => {
  // the four subcommands whose --help failed or created ./data/plumbline.db before the command line was declared
  const cases = [
    ["reference", "keys", "--help"],
    ["reference", "payments", "--help"],
    ["conform", "coverage", "--help"],
    ["conform", "serve-fixtures", "--help"],
    ["reference", "auth-server", "--help"],
    ["reference", "--help"],
  ];

  it("exits 0 with the command's own help and creates nothing", async () => {
    for (const argv of cases) {
      const r = await runCli(argv, { cwd: empty });
      expect([r.code, r.stderr], argv.join(" ")).toEqual([0, ""]);
      const cmd = tree.commands.find((c) => commandPath(c) === ["plumbline", ...argv.slice(0, -1)].join(" "));
      expect(r.stdout, argv.join(" ")).toBe(tree.helpOf(cmd as CommandUnknownOpts));
    }
    expect(readdirSync(empty)).toEqual([]);
  });
});
