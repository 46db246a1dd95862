// The packages as their users get them (issue 36): each workspace packed with `npm pack`, and an empty project that
// installs one package's tarball (with the tarballs of the plumbline packages it depends on, which stand in for the
// registry until they are published) with `npm install --omit=dev`. Used by tools/package-smoke.js (every command
// of every package run once) and by `plumbline bench install` (sizes and times beside Prism's and MSW's).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SCOPE = "@plumbline-kit";
/** The published packages, lowest layer first. */
export const PACKAGES = ["contract", "cli", "platform", "mock", "tools", "reference"];

/** @param {string} name @returns {{ name: string; version: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }} */
export function manifestOf(name) {
  return JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8"));
}

/** The plumbline packages `name` needs installed with it: itself and its @plumbline-kit dependencies, transitively. */
/** @param {string} name @returns {string[]} */
export function closureOf(name) {
  const out = new Set([name]);
  const visit = (/** @type {string} */ n) => {
    for (const dep of Object.keys(manifestOf(n).dependencies ?? {}))
      if (dep.startsWith(`${SCOPE}/`)) {
        const short = dep.slice(SCOPE.length + 1);
        if (!out.has(short)) {
          out.add(short);
          visit(short);
        }
      }
  };
  visit(name);
  return [...out];
}

/**
 * Packs every published package (built first by `npm run build`) into `dir`; resolves with each one's tarball.
 * @param {string} dir
 * @returns {Record<string, string>}
 */
export function packAll(dir) {
  mkdirSync(dir, { recursive: true });
  /** @type {Record<string, string>} */
  const tarballs = {};
  for (const name of PACKAGES) {
    if (!statSync(join(ROOT, "packages", name, "dist"), { throwIfNoEntry: false }))
      throw new Error(`packages/${name}/dist is missing: run \`npm run build\` first`);
    const out = execFileSync(
      "npm",
      ["pack", "--silent", "--pack-destination", dir, "--workspace", `packages/${name}`],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    tarballs[name] = join(dir, out.trim().split("\n").pop() ?? "");
  }
  return tarballs;
}

/** Files of a tarball (`tar -tzf`), without the `package/` prefix. @param {string} tarball */
export function filesOf(tarball) {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((f) => f.replace(/^package\//, ""));
}

/**
 * An empty project with `specs` installed by npm (`--omit=dev`); resolves with its folder and how long it took.
 * @param {string[]} specs tarball paths or registry specs
 * @param {{ nodeBin?: string; dir?: string; extra?: string[] }} [o]
 */
export function installInto(specs, o = {}) {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), "plumbline-install-"));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "user-project", version: "1.0.0", private: true, type: "module" }),
  );
  const env = { ...process.env };
  if (o.nodeBin) {
    env.PATH = `${o.nodeBin}:${env.PATH}`;
    env.npm_config_nodedir = join(o.nodeBin, "..");
  }
  const started = performance.now();
  execFileSync(
    "npm",
    [
      "install",
      "--omit=dev",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--loglevel=error",
      ...(o.extra ?? []),
      ...specs,
    ],
    { cwd: dir, env, stdio: ["ignore", "ignore", "inherit"] },
  );
  return { dir, seconds: (performance.now() - started) / 1000 };
}

/** Bytes on disk and number of packages of a project's node_modules. @param {string} dir */
export function footprint(dir) {
  const modules = join(dir, "node_modules");
  const bytes = Number(execFileSync("du", ["-sb", modules], { encoding: "utf8" }).split("\t")[0]);
  const lock = JSON.parse(readFileSync(join(modules, ".package-lock.json"), "utf8"));
  const packages = Object.keys(lock.packages).filter(
    (p) => p.includes("node_modules/") && !lock.packages[p].link,
  ).length;
  return { megabytes: bytes / 1e6, packages };
}

/** The names directly under a folder (for messages). @param {string} dir */
export const list = (dir) => readdirSync(dir).sort();
