#!/usr/bin/env node
// Entry point of the `plumbline` command: the reference's server is started again in a Node with the V8 flags it
// needs (./relaunch.js); the root of the command line (./cli.js, commander) answers `plumbline --help`,
// `--version` and an unknown command by itself, and loads a command's package only once the command is named.
// V8's compiled code of the modules loaded is kept in Node's compile cache (in the temporary folder): a start
// takes ~10 ms less.
import module from "node:module";
import { relaunch, relaunchFlags } from "./relaunch.js";

module.enableCompileCache?.();
// `plumbline --help | head`: a reader that stops early is not an error
process.stdout.on("error", (err) => {
  if (/** @type {NodeJS.ErrnoException} */ (err).code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});
const argv = process.argv.slice(2);
const flags = relaunchFlags(argv, process.execArgv, process.env);
// the script Node was started with: this file once built, bin/plumbline.js from the repository's sources
if (flags.length > 0) await relaunch(/** @type {string} */ (process.argv[1]), argv, flags);

const { main } = await import("./cli.js");
process.exitCode = await main(argv);
