#!/usr/bin/env node
// `plumbline` from this repository's sources, without a build: the cli package's entry
// (packages/cli/src/plumbline.js) under tsx, with plumbline's own packages resolved to their sources (the
// "plumbline-source" condition of their exports; ./source-hooks.js). Tests, docs and CONTRIBUTING run this; users
// run the built command (`npx plumbline`, packages/cli/dist/plumbline.js). Not part of any package.
//
// When dist/ was built from these very sources (`npm run build` recorded their fingerprint in packages/.built-from)
// a command runs the built code instead: the same program, without compiling and resolving TypeScript at every
// start (a reference starts in ~3 CPU-seconds built, 7-8 from the sources, and the benchmarks start several). The
// benchmarks themselves are never built, so `plumbline bench` always runs here; PLUMBLINE_TEST_FROM_SOURCES=1 keeps
// every command on the sources. Checking the fingerprint costs ~0.1 s.
import { existsSync, readFileSync } from "node:fs";
import { register } from "node:module";
import { FINGERPRINT_FILE, sourceFingerprint } from "../tools/build-fingerprint.js";

const BUILT = new URL("../packages/cli/dist/plumbline.js", import.meta.url);

function builtIsCurrent() {
  if (process.argv[2] === "bench" || process.env.PLUMBLINE_TEST_FROM_SOURCES === "1") return false;
  if (!existsSync(BUILT) || !existsSync(FINGERPRINT_FILE)) return false;
  return readFileSync(FINGERPRINT_FILE, "utf8").trim() === sourceFingerprint();
}

if (builtIsCurrent()) {
  await import(BUILT.href);
} else {
  register("./source-hooks.js", import.meta.url);
  const { register: registerTsx } = await import("tsx/esm/api");
  registerTsx();
  await import("../packages/cli/src/plumbline.js");
}
