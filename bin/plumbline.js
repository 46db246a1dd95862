#!/usr/bin/env node
// Entry point of the `plumbline` command: the reference's server is started again in a Node with the V8 flags it
// needs (./relaunch.js); everything else loads the TypeScript sources through tsx, then dispatches.
// V8's compiled code of the modules loaded (tsx, commander, the sources) is kept in Node's compile cache (in the
// temporary folder, as tsx keeps its transforms): a start, `plumbline --help` included, takes ~10 ms less.
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

const { register } = await import("tsx/esm/api");
register();
const { main } = await import("./cli.ts");
process.exitCode = await main(argv);
