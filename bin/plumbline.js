#!/usr/bin/env node
// Entry point of the `plumbline` command: loads the TypeScript sources through tsx, then dispatches.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./cli.ts");
process.exitCode = await main(process.argv.slice(2));
