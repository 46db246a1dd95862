#!/usr/bin/env node
// `plumbline` from this repository's sources, without a build: the cli package's entry
// (packages/cli/src/plumbline.js) under tsx, with plumbline's own packages resolved to their sources (the
// "plumbline-source" condition of their exports; ./source-hooks.js). Tests, docs and CONTRIBUTING run this; users
// run the built command (`npx plumbline`, packages/cli/dist/plumbline.js). Not part of any package.
//
// When dist/ was built from these very sources a command runs the built code instead (./from-sources.js says
// why); the benchmarks are never built, so `plumbline bench` always runs here.
import { builtIsCurrent, registerSources } from "./from-sources.js";

const BUILT = new URL("../packages/cli/dist/plumbline.js", import.meta.url);

if (process.argv[2] !== "bench" && builtIsCurrent(BUILT)) {
  await import(BUILT.href);
} else {
  await registerSources();
  await import("../packages/cli/src/plumbline.js");
}
