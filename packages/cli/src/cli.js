// `plumbline <command>`: the root of the command line (commander). Each command is declared once, in its package's
// cli.ts, and is loaded only when it runs: the packages pull in very different dependencies (SQLite and PostgreSQL
// drivers, Chromium drivers, image codecs, autocannon), and even their definitions cost start-up time, so the root
// knows each command by its name, its package and one-line summary only (what `plumbline --help` lists). A command
// whose package is not installed says which one to add.
import { readFileSync } from "node:fs";
import { actionExitCode, CONSOLE_OUTPUT, Command, configureTree, isCommanderError } from "./command-kit.js";

/** @typedef {import("./command-kit.js").CommandUnknownOpts} CommandUnknownOpts */
/** @typedef {import("./command-kit.js").Output} Output */

/** @type {Record<string, { summary: string; pkg: string; load: () => Promise<CommandUnknownOpts> }>} */
const COMMANDS = {
  mock: {
    summary: "run the stateful mock of the API (npm start)",
    pkg: "@plumbline-kit/mock",
    load: async () => (await import("@plumbline-kit/mock/cli")).mockCommand(),
  },
  edges: {
    summary:
      "run a client's tests once per contract edge (429, 402 mid-batch, a failed task, nulls, …) and report the ones it mishandles",
    pkg: "@plumbline-kit/mock",
    load: async () => (await import("@plumbline-kit/mock/edges/cli")).edgesCommand(),
  },
  conform: {
    summary: "run the conformance suite against a target",
    pkg: "@plumbline-kit/tools",
    load: async () => (await import("@plumbline-kit/tools/conformance/cli")).conformCommand(),
  },
  fuzz: {
    summary: "property-based fuzzing of a target from the spec",
    pkg: "@plumbline-kit/tools",
    load: async () => (await import("@plumbline-kit/tools/fuzz/cli")).fuzzCommand(),
  },
  load: {
    summary: "load a target with a scenario and judge it by thresholds",
    pkg: "@plumbline-kit/tools",
    load: async () => (await import("@plumbline-kit/tools/load/cli")).loadCommand(),
  },
  gate: {
    summary: "conformance, a time-boxed fuzz and a short load run in one CI step, one exit code",
    pkg: "@plumbline-kit/tools",
    load: async () => (await import("@plumbline-kit/tools/gate/cli")).gateCommand(),
  },
  proxy: {
    summary: "a validating, recording proxy in front of a target (hybrid: some operations from the mock)",
    pkg: "@plumbline-kit/tools",
    load: async () => (await import("@plumbline-kit/tools/proxy/cli")).proxyCommand(),
  },
  reference: {
    summary: "run the reference implementation; administer its keys, payments, feedback reports and search index",
    pkg: "@plumbline-kit/reference",
    load: async () => (await import("@plumbline-kit/reference/cli")).referenceCommand(),
  },
  bench: {
    summary: "benchmarks of the mock, the reference and its parts (docs/performance.md)",
    pkg: "@plumbline-kit/bench",
    load: async () => (await import("@plumbline-kit/bench/cli")).benchCommand(),
  },
  spec: {
    summary: "validate, summarise, lint, diff and generate types from the contract (an OpenAPI document)",
    pkg: "@plumbline-kit/tools",
    load: async () => (await import("@plumbline-kit/tools/spec/cli")).specCommand(),
  },
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

/** @returns {string} */
function version() {
  return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
}

/**
 * The `plumbline` program. `load` names the commands whose definitions are loaded ("all": every one, for the docs
 * and the tests walking the tree); the others are listed by name and summary only.
 * @param {string[] | "all"} load
 * @param {Output} [output]
 * @returns {Promise<Command>}
 */
export async function createProgram(load, output = CONSOLE_OUTPUT) {
  const program = new Command("plumbline")
    .description(
      "A stateful mock, a conformance suite, a fuzzer, load scripts and a reference implementation of the Web Search, Crawl and Extraction Service API.",
    )
    .version(version(), "-V, --version", "print plumbline's version")
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 the verdict failed (a check, property, threshold or target), 2 bad usage or could not run.\nEvery command's options: plumbline <command> --help, or docs/cli.md.",
    );
  for (const [name, entry] of Object.entries(COMMANDS)) {
    if (load === "all" || load.includes(name))
      program.addCommand(/** @type {any} */ (await loadCommand(name, entry)).summary(entry.summary));
    else program.command(name).summary(entry.summary);
  }
  configureTree(/** @type {CommandUnknownOpts} */ (/** @type {unknown} */ (program)), output);
  return program;
}

/** A command's package is not installed: what to add. */
export class MissingPackageError extends Error {}

/**
 * A command's definition, from its package; a clear message naming the package when it is not installed.
 * @param {string} name
 * @param {{ pkg: string; load: () => Promise<CommandUnknownOpts> }} entry
 * @returns {Promise<CommandUnknownOpts>}
 */
async function loadCommand(name, entry) {
  try {
    return await entry.load();
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code;
    const missing =
      code === "ERR_MODULE_NOT_FOUND" && String(/** @type {Error} */ (err).message).includes(`'${entry.pkg}`);
    if (!missing) throw err;
    if (entry.pkg === "@plumbline-kit/bench")
      throw new MissingPackageError(
        `\`plumbline ${name}\` runs from plumbline's repository (its benchmarks are not published)`,
      );
    throw new MissingPackageError(
      `\`plumbline ${name}\` needs the package ${entry.pkg}, which is not installed: npm install --save-dev ${entry.pkg}`,
    );
  }
}

/**
 * The commands an argv runs (its first word, or the one `help` names), whose definitions must be loaded.
 * @param {string[]} argv
 * @returns {string[]}
 */
export function selectedCommands(argv) {
  const [first, second] = argv;
  const named = first === "help" ? second : first;
  return named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : [];
}

/**
 * Runs `plumbline ARGV`; resolves with the exit code (0 ok, 1 the verdict failed, 2 bad usage or could not run).
 * @param {string[]} argv
 * @param {Output} [output]
 * @returns {Promise<number>}
 */
export async function main(argv, output = CONSOLE_OUTPUT) {
  try {
    const program = await createProgram(selectedCommands(argv), output);
    await program.parseAsync(argv, { from: "user" });
    return actionExitCode(/** @type {CommandUnknownOpts} */ (/** @type {unknown} */ (program))) ?? 0;
  } catch (err) {
    if (isCommanderError(err)) return err.exitCode === 0 ? 0 : 2;
    console.error(`plumbline: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
}
