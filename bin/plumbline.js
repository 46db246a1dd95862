#!/usr/bin/env node
// `plumbline` from this repository's sources, without a build: the cli package's entry
// (packages/cli/src/plumbline.js) under tsx, with plumbline's own packages resolved to their sources (the
// "plumbline-source" condition of their exports; ./source-hooks.js). Tests, docs and CONTRIBUTING run this; users
// run the built command (`npx plumbline`, packages/cli/dist/plumbline.js). Not part of any package.
import { register } from "node:module";

register("./source-hooks.js", import.meta.url);
const { register: registerTsx } = await import("tsx/esm/api");
registerTsx();
await import("../packages/cli/src/plumbline.js");
