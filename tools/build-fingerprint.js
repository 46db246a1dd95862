// What a build of the packages is made of, as one hash: every file under packages/*/src that `npm run build`
// turns into dist/ (tests, test fixtures and the private bench package left out, as the build leaves them out),
// the build script and its tsconfig. `npm run build` records it beside the dist folders; the test run's
// globalSetup (test-support/built-packages.ts) compares it and builds again when the sources changed, so the
// `plumbline` processes tests start are the built command a user runs, never a stale one.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where `npm run build` records the fingerprint of what it built (git-ignored, as dist/ is). */
export const FINGERPRINT_FILE = join(ROOT, "packages", ".built-from");

/** @param {string} rel */
export const isTest = (rel) => /(^|\/)test\//.test(rel) || /\.test\.[jt]s$/.test(rel);

/** Every file below `dir`. @param {string} dir @returns {string[]} */
export function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The packages `npm run build` builds: every folder of packages/ but the private bench (and dot-entries). */
export function builtPackages() {
  return readdirSync(join(ROOT, "packages"))
    .filter((p) => p !== "bench" && !p.startsWith("."))
    .sort();
}

/** The hash of the built packages' inputs. */
export function sourceFingerprint() {
  const hash = createHash("sha256");
  const files = [join(ROOT, "tools", "build.js"), join(ROOT, "tsconfig.build.json")];
  for (const pkg of builtPackages()) {
    const src = join(ROOT, "packages", pkg, "src");
    files.push(join(ROOT, "packages", pkg, "package.json"));
    files.push(...walk(src).filter((f) => !isTest(relative(src, f))));
  }
  for (const file of files.sort()) hash.update(relative(ROOT, file)).update("\0").update(readFileSync(file));
  return hash.digest("hex");
}
