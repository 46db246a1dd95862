// A client's project with plumbline installed, for tests that run `npx plumbline …` as a user types it: a new
// folder with a package.json, and node_modules/@plumbline-kit/NAME links to this checkout's published packages (installing
// the packed tarballs would install every dependency again, minutes; tools/package-smoke.js does that once on CI).
// npx finds the command in node_modules/.bin: the built one (packages/cli/dist/plumbline.js, fresh:
// built-packages.ts), as after `npm i -D plumbline-kit-cli-0.1.0.tgz …`, or the sources' launcher with
// PLUMBLINE_TEST_FROM_SOURCES=1. Test glue.
import { spawn } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { PACKAGES } from "../tools/packages.js";
import { BIN, SOURCE_BIN } from "./cli-process.ts";
import { ROOT } from "./markdown.ts";

export interface LinkedProject {
  dir: string;
  remove(): void;
}

/** `fromSources`: the command is the sources' launcher (bin/plumbline.js), as the repository's own recipes run it. */
export function linkedProject(prefix = "plumbline-project-", options: { fromSources?: boolean } = {}): LinkedProject {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const devDependencies = Object.fromEntries(
    PACKAGES.map((p) => [`@plumbline-kit/${p}`, `file:${join(ROOT, "packages", p)}`]),
  );
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "client", private: true, type: "module", devDependencies }),
  );
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "@plumbline-kit"));
  for (const p of PACKAGES)
    symlinkSync(join(ROOT, "packages", p), join(dir, "node_modules", "@plumbline-kit", p), "dir");
  symlinkSync(
    relative(join(dir, "node_modules", ".bin"), options.fromSources ? SOURCE_BIN : BIN),
    join(dir, "node_modules", ".bin", "plumbline"),
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment a user's shell would give: this Node first on PATH, nothing of the npm script running the tests. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_/i.test(k) && !/^PLUMBLINE_|^SEARCH1API_/.test(k)) env[k] = v;
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH}`;
  env.NO_COLOR = "1";
  return { ...env, ...extra };
}

/** npx as found on PATH (npm's, beside Node or the system's). */
export function npx(): string {
  for (const dir of [dirname(process.execPath), ...(process.env.PATH ?? "").split(delimiter)]) {
    const file = join(dir, "npx");
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  throw new Error("npx is not on PATH: install npm beside Node");
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

/** `npx --offline ARGS` in the project, to its end; `onSpawn` gets the child (to signal it). */
export function runNpx(
  project: LinkedProject,
  args: string[],
  env: Record<string, string> = {},
  onSpawn?: (pid: number) => void,
): Promise<Run> {
  const child = spawn(npx(), ["--offline", ...args], {
    cwd: project.dir,
    env: userEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    out += c;
  });
  if (child.pid !== undefined) onSpawn?.(child.pid);
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, out })));
}
