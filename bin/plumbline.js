#!/usr/bin/env node
// Entry point of the `plumbline` command: the reference's server is started again in a Node with the V8 flags it
// needs (./relaunch.js); everything else loads the TypeScript sources through tsx, then dispatches.
import { fileURLToPath } from "node:url";
import { relaunch, relaunchFlags } from "./relaunch.js";

const argv = process.argv.slice(2);
const flags = relaunchFlags(argv, process.execArgv, process.env);
if (flags.length > 0) await relaunch(fileURLToPath(import.meta.url), argv, flags);

const { register } = await import("tsx/esm/api");
register();
const { main } = await import("./cli.ts");
process.exitCode = await main(argv);
