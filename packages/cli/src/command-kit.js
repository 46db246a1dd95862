// What every `plumbline` command shares on top of commander: the argument parsers (a bad value is refused naming
// the flag and what it takes), the exit code an action returns, and the settings applied to the whole tree (output,
// error prefix, exit codes: 2 for bad usage). Each command declares its options once, in its own cli.ts, with
// these; help, usage and docs/cli.md are generated from that declaration. Plain JavaScript, like the root
// (bin/cli.js): `plumbline --help` answers before tsx loads.
import { Command, InvalidArgumentError, Option } from "@commander-js/extra-typings";

export { Command, InvalidArgumentError, Option };
/** @typedef {import("@commander-js/extra-typings").CommandUnknownOpts} CommandUnknownOpts */
/** @typedef {import("@commander-js/extra-typings").OptionValues} OptionValues */

/** Help and docs/cli.md are wrapped at this width when the output is not a terminal (so they do not vary). */
export const HELP_WIDTH = 100;

// ---------------------------------------------------------------------------------------------------------------
// Argument parsers: each returns the parsed value or throws InvalidArgumentError, which commander prints as
// "plumbline CMD: option '--flag <n>' argument 'x' is invalid. Expected …".

/**
 * A whole number from min to max.
 * @param {number} min
 * @param {number} [max]
 * @returns {(value: string) => number}
 */
export function wholeNumber(min, max = Number.MAX_SAFE_INTEGER) {
  return (value) => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `Expected a whole number >= ${min}.`
          : `Expected a whole number ${min}..${max}.`,
      );
    return n;
  };
}

/**
 * A number (fractions allowed) from min to max.
 * @param {number} min
 * @param {number} [max]
 * @returns {(value: string) => number}
 */
export function decimal(min, max = Number.MAX_VALUE) {
  return (value) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_VALUE ? `Expected a number >= ${min}.` : `Expected ${min}..${max}.`,
      );
    return n;
  };
}

/**
 * An http(s) URL with a host.
 * @param {string} value
 * @returns {string}
 */
export function httpUrl(value) {
  if (!/^https?:\/\/[^\s/]+/.test(value)) throw new InvalidArgumentError("Expected an http(s) URL.");
  return value;
}

/**
 * A comma-separated list (spaces around items ignored, empty items dropped).
 * @param {string} value
 * @returns {string[]}
 */
export function commaList(value) {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A comma-separated list of some of `choices`.
 * @template {string} T
 * @param {readonly T[]} choices
 * @returns {(value: string) => T[]}
 */
export function commaListOf(choices) {
  return (value) => {
    const items = commaList(value);
    const bad = items.filter((i) => !choices.includes(/** @type {T} */ (i)));
    if (bad.length > 0 || items.length === 0)
      throw new InvalidArgumentError(`Allowed: ${choices.join(", ")} (comma-separated).`);
    return /** @type {T[]} */ (items);
  };
}

/**
 * An option whose name starts with `--no-` but takes a value of its own (`conform fixtures export
 * --no-sitemap-url URL`), not commander's negation of `--sitemap-url`: read it with
 * `cmd.getOptionValue("noSitemapUrl")`.
 * @param {string} flags
 * @param {string} description
 * @returns {Option}
 */
export function literalOption(flags, description) {
  const option = new Option(flags, description);
  option.negate = false;
  return option;
}

/**
 * A repeatable option: each occurrence parsed by `parse` and collected, in order.
 * @template T
 * @param {(value: string) => T} parse
 * @returns {(value: string, previous: T[] | undefined) => T[]}
 */
export function repeatable(parse) {
  return (value, previous) => [...(previous ?? []), parse(value)];
}

/** A repeatable string option's parser (kept as given). */
export const collect = repeatable((/** @type {string} */ v) => v);

// ---------------------------------------------------------------------------------------------------------------
// Exit codes: 0 ok, 1 the verdict failed, 2 could not run. An action returns its code; main() reads it.

/** @type {WeakMap<CommandUnknownOpts, number>} */
const exitCodes = new WeakMap();

/**
 * @param {CommandUnknownOpts} cmd
 * @returns {CommandUnknownOpts}
 */
function rootOf(cmd) {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

/**
 * `plumbline reference keys`: the command's name with its parents'.
 * @param {CommandUnknownOpts} cmd
 * @returns {string}
 */
export function commandPath(cmd) {
  /** @type {string[]} */
  const names = [];
  for (let /** @type {CommandUnknownOpts | null} */ c = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/**
 * An action returning its exit code. A thrown Error is the command refusing its input or its target ("could not
 * run"): printed as `plumbline CMD: message`, exit 2. Commander's own errors (bad usage) pass through to main().
 * @template {unknown[]} A
 * @param {(...args: A) => Promise<number> | number} fn
 * @returns {(...args: A) => Promise<void>}
 */
export function exits(fn) {
  return async (...args) => {
    const cmd = /** @type {CommandUnknownOpts} */ (args[args.length - 1]);
    /** @type {number} */
    let code;
    try {
      code = await fn(...args);
    } catch (err) {
      if (isCommanderError(err)) throw err;
      console.error(`${commandPath(cmd)}: ${err instanceof Error ? err.message : String(err)}`);
      code = 2;
    }
    exitCodes.set(rootOf(cmd), code);
  };
}

/**
 * The exit code an action of this program returned, if one ran.
 * @param {CommandUnknownOpts} program
 * @returns {number | undefined}
 */
export function actionExitCode(program) {
  return exitCodes.get(program);
}

/**
 * @param {unknown} err
 * @returns {err is { code: string; exitCode: number; message: string }}
 */
export function isCommanderError(err) {
  return (
    typeof err === "object" &&
    err !== null &&
    typeof (/** @type {{ code?: unknown }} */ (err).code) === "string" &&
    /** @type {{ code: string }} */ (err).code.startsWith("commander.")
  );
}

/**
 * Bad usage found by an action (a combination commander cannot declare): exit 2, the command's help hint.
 * @param {CommandUnknownOpts} cmd
 * @param {string} message
 * @returns {never}
 */
export function usageError(cmd, message) {
  cmd.error(`error: ${message}`, { exitCode: 2, code: "commander.usage" });
  throw new Error(message); // not reached: cmd.error throws (exitOverride)
}

/**
 * Options required unless another option makes them moot (`conform --list`): refused as commander refuses a
 * mandatory option, exit 2.
 * @param {CommandUnknownOpts} cmd
 * @param {string[]} names
 */
export function requireOptions(cmd, names) {
  const values = cmd.opts();
  for (const name of names) {
    if (values[name] !== undefined) continue;
    const option = cmd.options.find((o) => o.attributeName() === name);
    usageError(cmd, `required option '${option?.flags ?? name}' not specified`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The settings every command of the tree gets (commander copies them to subcommands made with .command() only;
// the commands here are built in their own modules and added, so they are applied once the tree is assembled).

/**
 * @typedef {object} Output
 * @property {(text: string) => void} writeOut
 * @property {(text: string) => void} writeErr
 * @property {number} [width] help's width; default: the terminal's (at most HELP_WIDTH), HELP_WIDTH when not a terminal
 */

/**
 * Console output (so in-process callers can capture it as they capture the actions' output).
 * @type {Output}
 */
export const CONSOLE_OUTPUT = {
  writeOut: (text) => console.log(text.replace(/\n$/, "")),
  writeErr: (text) => console.error(text.replace(/\n$/, "")),
};

/**
 * @param {CommandUnknownOpts} cmd
 * @param {(cmd: CommandUnknownOpts) => void} visit
 */
function walk(cmd, visit) {
  visit(cmd);
  for (const sub of cmd.commands) walk(/** @type {CommandUnknownOpts} */ (sub), visit);
}

/**
 * Every command of the tree, parents first.
 * @param {CommandUnknownOpts} program
 * @returns {CommandUnknownOpts[]}
 */
export function commandsOf(program) {
  /** @type {CommandUnknownOpts[]} */
  const all = [];
  walk(program, (c) => all.push(c));
  return all;
}

/**
 * @param {{ name(): string; required: boolean; variadic: boolean }} a
 * @returns {string}
 */
function argumentTerm(a) {
  const name = `${a.name()}${a.variadic ? "..." : ""}`;
  return a.required ? `<${name}>` : `[${name}]`;
}

/**
 * @param {CommandUnknownOpts} program
 * @param {Output} output
 */
export function configureTree(program, output) {
  const width = () =>
    output.width ?? (process.stdout.isTTY ? Math.min(process.stdout.columns, HELP_WIDTH) : HELP_WIDTH);
  walk(program, (cmd) => {
    const path = commandPath(cmd);
    if (cmd.commands.length > 0) {
      const help = new Command("help")
        .argument("[command]")
        .description("show a subcommand's help")
        .helpOption(false)
        .helpGroup("Commands:");
      cmd.addHelpCommand(/** @type {any} */ (help));
      // a command that serves and has subcommands (reference, conform): its options never reach a subcommand
      // (`reference --data-dir X keys list` would list ./data's keys): refused, naming where they go
      cmd.hook("preSubcommand", (parent, sub) => {
        const given = parent.options.filter((o) => parent.getOptionValueSource(o.attributeName()) === "cli");
        if (given.length > 0)
          usageError(
            parent,
            `${given.map((o) => o.long).join(", ")} belongs to ${commandPath(parent)} itself; give the options of ${commandPath(sub)} after its name`,
          );
      });
    }
    cmd
      // options after a subcommand's name are the subcommand's (reference and its keys both take --data-dir)
      .enablePositionalOptions()
      // in the plain "Options:" group, also on a command whose options are grouped under headings of their own
      .addHelpOption(new Option("-h, --help", "show this help").helpGroup("Options:"))
      .exitOverride()
      .configureOutput({
        writeOut: output.writeOut,
        writeErr: output.writeErr,
        getOutHelpWidth: width,
        getErrHelpWidth: width,
        outputError: (text, write) => write(text.replace(/^error: /, `${path}: `)),
      })
      .showHelpAfterError(`(${path} --help lists what it takes)`)
      .configureHelp({
        // a subcommand is listed by its name and arguments; its options are on its own --help, and so is the command
        // a server runs after -- (bin/wrapped-command.ts: `plumbline --help` lists the commands unloaded, by name)
        subcommandTerm: (sub) =>
          [
            sub.name(),
            ...sub.registeredArguments.filter((a) => !(a.variadic && a.name() === "command")).map(argumentTerm),
          ].join(" "),
      });
  });
}
