#!/usr/bin/env node
// `npm run typecheck`: `tsc --noEmit` over the repository (tsconfig.json: the packages, their tests, the test glue,
// the tools), unless the very same files passed it already, as make would say. The files tsconfig.json takes in,
// tsconfig.json itself, package-lock.json (the types of the dependencies) and TypeScript's version make a digest;
// a check that passed writes it to node_modules/.cache/plumbline/typecheck, and a run that finds the same digest
// there has nothing to do. `.ci/run` type-checks beside the build (each is one thread of tsc, ~15 s), so the test
// command's own check then finds it done. `node tools/typecheck.js --force` checks anyway.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STAMP = join(ROOT, "node_modules", ".cache", "plumbline", "typecheck");
const require = createRequire(import.meta.url);
const ts = require("typescript");

/** The digest of what the check reads: every file of the program's roots, the config, the lockfile, tsc's version. */
function inputsDigest() {
  /** @type {import("typescript").ParsedCommandLine | undefined} */
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (/** @type {import("typescript").Diagnostic} */ d) => {
        throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      },
    },
  );
  if (!config) throw new Error("tsconfig.json could not be read");
  const files = [...config.fileNames, join(ROOT, "tsconfig.json"), join(ROOT, "package-lock.json")].sort();
  const hash = createHash("sha256").update(`typescript ${ts.version}\n`);
  for (const file of files)
    hash
      .update(`${relative(ROOT, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  return { digest: hash.digest("hex"), count: config.fileNames.length };
}

const started = performance.now();
const { digest, count } = inputsDigest(); // before the check reads them: a file changed meanwhile is checked next time
const stamped = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : "";
if (!process.argv.includes("--force") && stamped === digest) {
  console.log(`type-checked already: these ${count} files passed tsc --noEmit (--force checks them again)`);
  process.exit(0);
}
try {
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "--noEmit", "-p", join(ROOT, "tsconfig.json")],
    {
      stdio: "inherit",
      cwd: ROOT,
    },
  );
} catch (err) {
  process.exit(/** @type {{ status?: number }} */ (err).status ?? 1);
}
mkdirSync(dirname(STAMP), { recursive: true });
writeFileSync(STAMP, `${digest}\n`);
console.log(`type-checked ${count} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
