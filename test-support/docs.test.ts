// The documentation a user reads (README, CONTRIBUTING, docs/*.md, the folders' READMEs) against the code: every
// `plumbline …` command and flag it quotes exists (checked against the commands' definitions, so renaming a flag
// fails here until the docs follow), every `npm run` script exists, every table renders (as many cells in each
// row as in its header: a `|` inside code must be escaped), every relative link and anchor resolves, and the
// README stays short.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type CommandUnknownOpts, commandPath } from "../packages/cli/src/command-kit.js";
import { type CapturedProgram, capturedProgram } from "../tools/cli-docs.ts";
import {
  anchors,
  codeSpans,
  documentationFiles,
  links,
  type Page,
  paragraphs,
  plumblineCommands,
  ROOT,
  readPage,
  tables,
} from "./markdown.ts";

let tree: CapturedProgram;
let pages: Page[];
beforeAll(async () => {
  tree = await capturedProgram();
  pages = documentationFiles().map(readPage);
});

const clean = (word: string) => word.replace(/^[[("'{]+|[\])"',.:;}]+$/g, "");
const isPlaceholder = (word: string) => /^(<|…|\.\.\.|\$)/.test(word) || word === "";

/** The default subcommand commander runs for a command given none (`spec` runs `spec summary`). */
function defaultSubcommand(cmd: CommandUnknownOpts): CommandUnknownOpts | undefined {
  const name = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
  return name ? (cmd.commands.find((c) => c.name() === name) as CommandUnknownOpts) : undefined;
}

/** What is wrong with `plumbline WORDS` as the definitions have it: an unknown command or flag. */
function problems(words: string[]): string[] {
  const root = tree.program as unknown as CommandUnknownOpts;
  let cmd = root;
  let i = 0;
  for (; i < words.length; i++) {
    const word = clean(words[i]);
    if (word.startsWith("-")) break;
    const alternatives = word.split("|");
    const subs = alternatives.map((a) => cmd.commands.find((c) => c.name() === a) as CommandUnknownOpts | undefined);
    if (subs.every(Boolean) && subs.length > 0) {
      if (subs.length > 1) return []; // `keys create|list|…`: each one exists; their flags are their own
      cmd = subs[0] as CommandUnknownOpts;
      continue;
    }
    if (cmd === root && !isPlaceholder(word)) return [`unknown command "${word}"`];
    break; // an argument of the command
  }
  const out: string[] = [];
  for (const word of words.slice(i)) {
    for (const alternative of clean(word).split("|")) {
      const flag = /^--?[a-zA-Z][\w-]*/.exec(clean(alternative))?.[0];
      if (!flag?.startsWith("--")) continue;
      const has = (c: CommandUnknownOpts | undefined) => c?.options.some((o) => o.long === flag || o.short === flag);
      const known =
        flag === "--help" || (cmd === root && flag === "--version") || has(cmd) || has(defaultSubcommand(cmd));
      if (!known) out.push(`${commandPath(cmd)} has no ${flag}`);
    }
  }
  return out;
}

describe("the documentation", () => {
  it("quotes only commands and flags that exist", () => {
    const wrong: string[] = [];
    let quoted = 0;
    for (const page of pages) {
      if (page.file === "docs/cli.md") continue; // generated from the definitions themselves
      for (const { line, words } of plumblineCommands(page)) {
        quoted++;
        for (const p of problems(words)) wrong.push(`${page.file}:${line}: plumbline ${words.join(" ")}: ${p}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(quoted).toBeGreaterThan(100); // the scan sees the docs' commands (a broken scan would pass vacuously)
  });

  it("names only npm scripts of this package that exist (in shell blocks and code spans)", () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts);
    const wrong: string[] = [];
    for (const page of pages) {
      const texts = [
        // a YAML block may be a client's CI job, running the client's own scripts
        ...page.blocks.filter((b) => /^(sh|bash|shell)\b/.test(b.info)).map((b) => ({ line: b.line, text: b.text })),
        ...paragraphs(page).flatMap((p) => codeSpans(p.text).map((text) => ({ line: p.line, text }))),
      ];
      for (const { line, text } of texts)
        for (const m of text.matchAll(/npm run (?:-s )?([\w:-]+)/g))
          if (!scripts.includes(m[1])) wrong.push(`${page.file}:${line}: npm run ${m[1]}`);
    }
    expect(wrong).toEqual([]);
  });

  it("renders every table: each row has as many cells as its header", () => {
    const wrong: string[] = [];
    for (const page of pages)
      for (const table of tables(page)) {
        const width = table[0].cells.length;
        for (const row of table)
          if (row.cells.length !== width)
            wrong.push(
              `${page.file}:${row.line}: ${row.cells.length} cells, the header has ${width} (an unescaped |?)`,
            );
      }
    expect(wrong).toEqual([]);
  });

  it("links only to files and headings that exist", () => {
    const wrong: string[] = [];
    const anchorsOf = new Map<string, Set<string>>();
    const anchorsIn = (file: string) => {
      if (!anchorsOf.has(file)) anchorsOf.set(file, anchors(readPage(file)));
      return anchorsOf.get(file) as Set<string>;
    };
    for (const page of pages)
      for (const { line, target } of links(page)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split("#");
        const file = path === "" ? page.file : normalize(join(dirname(page.file), decodeURIComponent(path)));
        const where = `${page.file}:${line}: ${target}`;
        if (!existsSync(join(ROOT, file))) wrong.push(`${where}: no ${relative(".", file)}`);
        else if (anchor && file.endsWith(".md") && !anchorsIn(file).has(anchor))
          wrong.push(`${where}: no such heading`);
      }
    expect(wrong).toEqual([]);
  });

  it("keeps the README short: what it is, install, quick starts, the commands, links", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    for (const heading of ["## Install", "## Quick start: the mock", "## Commands", "## Documentation"])
      expect(readme).toContain(heading);
    // the command table names every command of the program and links its docs/cli.md section
    for (const cmd of tree.program.commands)
      expect(readme).toContain(`[\`plumbline ${cmd.name()}\`](docs/cli.md#plumbline-${cmd.name()})`);
  });
});

describe("the documentation check itself", () => {
  it("finds a flag a command does not take, and an unknown command", () => {
    expect(problems(["mock", "--port", "4010"])).toEqual([]);
    expect(problems(["mock", "--no-such-flag"])).toEqual(["plumbline mock has no --no-such-flag"]);
    expect(problems(["frobnicate"])).toEqual(['unknown command "frobnicate"']);
    expect(problems(["spec", "--profile", "alt-bounds"])).toEqual([]); // spec runs spec summary
    expect(problems(["conform", "fixtures", "export", "DIR", "--base-url", "URL"])).toEqual([]);
    expect(problems(["fuzz", "[--time", "S", "|", "--runs", "N]"])).toEqual([]);
  });

  it("counts the cells of a row with an escaped pipe in code as one", async () => {
    const { tableCells } = await import("./markdown.ts");
    expect(tableCells("| `a\\|b` | c |")).toHaveLength(2);
    expect(tableCells("| `a|b` | c |")).toHaveLength(3);
  });
});
