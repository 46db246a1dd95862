#!/usr/bin/env node
// `npm run build`: each package's JavaScript and declarations in packages/NAME/dist (issue 36), from one tsc
// program (tsconfig.build.json: the packages' sources without tests, into .build/), its non-code files (the
// OpenAPI document, the contract's texts, fixture sites, scenarios) beside them, and the payment SDK the packages
// use bundled into the contract's dist/vendor/ (see packages/contract/src/vendor/mppx.ts). Tests and test glue are
// not built; the repository's tests run the sources. Nothing is done when packages/.built-from says dist/ is of the
// same sources (tools/build-fingerprint.js); `node tools/build.js --force` builds anyway.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { builtPackages, FINGERPRINT_FILE, isTest, sourceFingerprint, walk } from "./build-fingerprint.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILD = join(ROOT, ".build");
const require = createRequire(import.meta.url);
const started = performance.now();

// One build at a time in a checkout: two test runs started together both find the sources changed, and two builds
// would remove each other's .build/ and dist/. The second waits for the first, then finds dist/ current.
const LOCK = join(ROOT, ".build.lock");
function takeLock() {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      process.on("exit", () => rmSync(LOCK, { recursive: true, force: true }));
      return;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== "EEXIST") throw err;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(join(LOCK, "pid"), "utf8"));
    } catch {}
    let alive = false;
    try {
      if (holder > 0) alive = process.kill(holder, 0);
    } catch {}
    // a lock whose build has ended (killed), or that never got its pid written: taken over
    // (gone meanwhile: the next mkdir takes it)
    const since = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
    const age = since === undefined ? 0 : Date.now() - since;
    if ((holder > 0 && !alive) || (holder === 0 && age > 10_000)) {
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another build has held ${LOCK} for 10 minutes (pid ${holder})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
takeLock();

const fingerprint = sourceFingerprint(); // of the sources this build reads, before it reads them
// built from these very sources already (every dist/ there): nothing to do, as make says; --force builds anyway.
// `.ci/run` packs the packages for their smoke while `npm test` runs, whose own build must then leave dist/ alone.
const packages = builtPackages();
const builtFrom = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, "utf8").trim() : "";
if (
  !process.argv.includes("--force") &&
  builtFrom === fingerprint &&
  packages.every((p) => existsSync(join(ROOT, "packages", p, "dist")))
) {
  console.log(`the ${packages.length} packages are built from these sources already (--force builds them again)`);
  process.exit(0);
}
rmSync(FINGERPRINT_FILE, { force: true });
rmSync(BUILD, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.build.json")], {
  stdio: "inherit",
});

/** Test code (isTest) and the source-mode worker shims stay out of dist/ (the shims load TypeScript through tsx). */
/** @param {string} rel */
const isShim = (rel) => /-worker\.mjs$/.test(rel);

for (const pkg of packages) {
  const src = join(ROOT, "packages", pkg, "src");
  const dist = join(ROOT, "packages", pkg, "dist");
  rmSync(dist, { recursive: true, force: true });
  renameSync(join(BUILD, "packages", pkg, "src"), dist);
  for (const file of walk(dist)) if (isShim(relative(dist, file))) rmSync(file);
  for (const file of walk(src)) {
    const rel = relative(src, file);
    if (/\.(ts|js|mjs|cjs)$/.test(rel) || isTest(rel)) continue;
    mkdirSync(dirname(join(dist, rel)), { recursive: true });
    cpSync(file, join(dist, rel));
  }
}
rmSync(BUILD, { recursive: true, force: true });

// the payment SDK, bundled (one copy for every package; viem only in the chunks the production methods load)
const { build } = await import("esbuild");
const vendor = join(ROOT, "packages/contract/src/vendor");
await build({
  entryPoints: ["mppx.ts", "mppx-server.ts", "mppx-client.ts"].map((f) => join(vendor, f)),
  outdir: join(ROOT, "packages/contract/dist/vendor"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  minify: true,
  legalComments: "eof",
  logLevel: "warning",
  // CommonJS dependencies inside the bundle may call require()
  banner: {
    js: 'import { createRequire as __plumblineRequire } from "node:module"; const require = __plumblineRequire(import.meta.url);',
  },
});
if (!existsSync(join(ROOT, "packages/contract/dist/vendor/mppx.js")))
  throw new Error("the vendor bundle was not written");
// the bundled OpenAPI documents, parsed, validated and their schemas compiled once here (every bound profile) instead
// of at every command's start: NAME.checked.json beside NAME.yaml, naming the YAML by its digest (packages/contract/src/document.ts)
{
  const contractDist = join(ROOT, "packages/contract/dist");
  const doc = await import(pathToFileURL(join(contractDist, "document.js")).href);
  const { profileNames } = await import(pathToFileURL(join(contractDist, "profiles.js")).href);
  const { loadContract } = await import(pathToFileURL(join(contractDist, "contract.js")).href);
  const { encodeGraph, decodeGraph } = await import(pathToFileURL(join(contractDist, "graph-json.js")).href);
  for (const version of doc.CONTRACT_VERSIONS) {
    const path = doc.contractPath(version);
    const document = doc.readRawDocument(path);
    /** @type {Record<string, import("../packages/contract/src/graph-json.ts").EncodedGraph>} */
    const dereferenced = {};
    for (const profile of profileNames(document)) {
      // loaded as a document of the user's is (dist/ was just written: no checked copy yet): valid OpenAPI and every
      // schema compiled, for each profile; a command then compiles each schema at its first use, and takes the
      // dereferenced document from here instead of loading the OpenAPI parser
      const contract = await loadContract({ path, profile });
      dereferenced[profile] = encodeGraph(contract.document);
      if (!isDeepStrictEqual(decodeGraph(dereferenced[profile]), contract.document))
        throw new Error(`${path} (${profile}): the dereferenced document does not come back the same from JSON`);
    }
    writeFileSync(
      doc.checkedDocumentPath(path),
      JSON.stringify({ sha256: doc.documentDigest(readFileSync(path)), document, dereferenced }),
    );
  }
}
// the command a package installs is executable, as npm makes it on install (tests run it from dist/ through npx)
for (const pkg of packages) {
  const manifest = JSON.parse(readFileSync(join(ROOT, "packages", pkg, "package.json"), "utf8"));
  for (const bin of Object.values(manifest.bin ?? {})) chmodSync(join(ROOT, "packages", pkg, bin), 0o755);
}
writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`);
console.log(`built ${packages.length} packages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
