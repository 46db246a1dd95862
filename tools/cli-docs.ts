// docs/cli.md, rendered from the commands' definitions: every command and subcommand with its --help as the parser
// prints it. `npm run docs:cli` (this file with --write) rewrites it; --check exits 1 when the committed page is
// stale, and tools/cli-docs.test.ts fails then, so the page cannot drift from the parser.
import { pathToFileURL } from "node:url";
import { createProgram } from "../packages/cli/src/cli.js";
import {
  type Command,
  type CommandUnknownOpts,
  commandPath,
  commandsOf,
  HELP_WIDTH,
} from "../packages/cli/src/command-kit.js";
import { derivedFile, derivedMode } from "../packages/tools/src/spec/derived-file.ts";

export const CLI_DOCS_PATH = new URL("../docs/cli.md", import.meta.url);

export interface CapturedProgram {
  program: Command;
  /** every command of the tree, parents first */
  commands: CommandUnknownOpts[];
  /** a command's --help as printed on a terminal HELP_WIDTH wide (or piped) */
  helpOf(cmd: CommandUnknownOpts): string;
}

/** The whole program (every definition loaded), its output captured. */
export async function capturedProgram(): Promise<CapturedProgram> {
  let buffer = "";
  const write = (text: string) => {
    buffer += text;
  };
  const program = await createProgram("all", { writeOut: write, writeErr: write, width: HELP_WIDTH });
  return {
    program,
    commands: commandsOf(program as unknown as CommandUnknownOpts),
    helpOf(cmd) {
      buffer = "";
      cmd.outputHelp();
      return buffer;
    },
  };
}

/** What a command does, in one line: its summary, else its description's first sentence. */
export function oneLine(cmd: CommandUnknownOpts): string {
  if (cmd.summary()) return cmd.summary();
  return cmd
    .description()
    .replace(/\s+/g, " ")
    .replace(/^(.*?\.)\s.*$/, "$1");
}

/** GitHub's anchor of a heading of plain words. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replace(/ /g, "-");

const cell = (text: string) => text.replace(/\|/g, "\\|");

export async function renderCliDocs(): Promise<string> {
  const { commands, helpOf } = await capturedProgram();
  const out = [
    "<!-- Generated from the commands' definitions (tools/cli-docs.ts): run `npm run docs:cli` after changing a command. -->",
    "",
    "# The `plumbline` command line",
    "",
    "Every command and subcommand, with its `--help` exactly as `plumbline` prints it: usage, options, defaults, choices",
    "and environment variables come from the same definitions the parser uses. Exit codes everywhere: 0 ok, 1 the",
    "verdict failed (a check, property, threshold or target), 2 bad usage or the command could not run.",
    "",
    "| command | what it does |",
    "|---|---|",
    ...commands
      .filter((c) => c.parent)
      .map((c) => `| [\`${commandPath(c)}\`](#${anchorOf(commandPath(c))}) | ${cell(oneLine(c))} |`),
  ];
  for (const cmd of commands) {
    out.push("", `## ${commandPath(cmd)}`, "", "```text", helpOf(cmd).trimEnd(), "```");
  }
  return `${out.join("\n")}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const mode = derivedMode({ write: args.includes("--write"), check: args.includes("--check") });
  process.exitCode = await derivedFile(CLI_DOCS_PATH, renderCliDocs, mode, "npm run docs:cli");
}
