#!/usr/bin/env node
// Entry point of the `plumbline` command: the reference's server is started again in a Node with the V8 flags it
// needs (./relaunch.js); the root of the command line (./cli.js, commander) is plain JavaScript and answers
// `plumbline --help`, `--version` and an unknown command by itself; the commands are TypeScript, loaded through tsx
// once one is named.
// V8's compiled code of the modules loaded (tsx, commander, the sources) is kept in Node's compile cache (in the
// temporary folder, as tsx keeps its transforms): a start takes ~10 ms less.
import module from "node:module";
import { fileURLToPath } from "node:url";
import { relaunch, relaunchFlags } from "./relaunch.js";

module.enableCompileCache?.();
// `plumbline --help | head`: a reader that stops early is not an error
process.stdout.on("error", (err) => {
  if (/** @type {NodeJS.ErrnoException} */ (err).code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});
const argv = process.argv.slice(2);
const flags = relaunchFlags(argv, process.execArgv, process.env);
if (flags.length > 0) await relaunch(fileURLToPath(import.meta.url), argv, flags);

const { main, selectedCommands } = await import("./cli.js");
if (selectedCommands(argv).length > 0) {
  const { register } = await import("tsx/esm/api");
  register();
}
process.exitCode = await main(argv);
