// How the repository runs plumbline's TypeScript without a build (bin/plumbline.js, and the worker threads the
// reference starts when Vitest or the launcher runs it from the sources): tsx with plumbline's packages resolved to
// their sources (./source-hooks.js). When dist/ was built from these very sources (`npm run build` records their
// fingerprint in packages/.built-from) the built JavaScript is the same program and loads several times faster, so
// that is what runs: a reference's parse worker loads in ~0.5 CPU-s built against ~2 through tsx, and the launcher
// starts a reference in ~3 CPU-s instead of 7-8. PLUMBLINE_TEST_FROM_SOURCES=1 keeps everything on the sources.
// Checking the fingerprint costs ~0.1 s. Not part of any package.
import { existsSync, readFileSync } from "node:fs";
import { register } from "node:module";
import { FINGERPRINT_FILE, sourceFingerprint } from "../tools/build-fingerprint.js";

/** Whether `built` (a file: URL under some package's dist/) is of the current sources. @param {URL} built */
export function builtIsCurrent(built) {
  if (process.env.PLUMBLINE_TEST_FROM_SOURCES === "1") return false;
  if (!existsSync(built) || !existsSync(FINGERPRINT_FILE)) return false;
  return readFileSync(FINGERPRINT_FILE, "utf8").trim() === sourceFingerprint();
}

/**
 * tsx's API, with plumbline's packages resolved to their sources on this thread. tsx is a devDependency of the
 * repository (this file is in no package): without it, a message saying so instead of a resolution error.
 * @returns {Promise<typeof import("tsx/esm/api")>}
 */
async function sourceLoader() {
  register("./source-hooks.js", import.meta.url);
  try {
    return await import("tsx/esm/api");
  } catch (err) {
    if (/** @type {{ code?: string }} */ (err).code !== "ERR_MODULE_NOT_FOUND") throw err;
    throw new Error(
      "plumbline's sources run through tsx, a devDependency of this repository: run npm ci in it (an installed plumbline runs with npx plumbline)",
    );
  }
}

/** Makes this thread able to import plumbline's TypeScript sources (once per thread). */
export async function registerSources() {
  (await sourceLoader()).register();
}

/**
 * A worker thread's module: the built one when it is current, else the TypeScript source through tsx (a worker
 * inherits no module loader from the thread that started it).
 * @param {URL} source the TypeScript module
 * @param {URL} built its built JavaScript
 * @returns {Promise<any>} the module's namespace
 */
export async function importWorkerModule(source, built) {
  if (builtIsCurrent(built)) return import(built.href);
  return (await sourceLoader()).tsImport(source.href, import.meta.url);
}
