// The commands' definitions stay light: building the whole program (every command and subcommand, as `--help` and
// docs/cli.md do) loads commander and no other package: no server, database driver, browser driver, image codec or
// load generator, which load only when their command runs (what keeps `plumbline --help` and every other start
// fast). Checked in a child Node that records every module it resolves.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const SCRIPT = `
import module from "node:module";
const seen = new Set();
module.registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.add(r.url); return r; } });
module.register("./bin/source-hooks.js", new URL("file://" + process.cwd() + "/"));
const { register } = await import("tsx/esm/api");
register();
const { createProgram } = await import("./packages/cli/src/cli.js");
const program = await createProgram("all", { writeOut() {}, writeErr() {} });
console.log(JSON.stringify({ commands: program.commands.length, urls: [...seen] }));
`;

describe("the commands' definitions", () => {
  it("load commander and nothing else of node_modules", () => {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], { cwd: ROOT, encoding: "utf8" });
    const { commands, urls } = JSON.parse(out.trim().split("\n").pop() as string) as {
      commands: number;
      urls: string[];
    };
    expect(commands).toBeGreaterThanOrEqual(9);
    const packages = new Set(
      urls
        .filter((u) => u.includes("/node_modules/"))
        .map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1])
        .filter((p) => p !== "tsx" && p !== "esbuild"), // the TypeScript loader itself
    );
    expect([...packages].sort()).toEqual(["@commander-js/extra-typings", "commander"]);
    // and of the project, only the definitions and the small modules they take their choices from
    const project = urls.filter((u) => u.startsWith("file:") && !u.includes("/node_modules/"));
    for (const heavy of ["start-mock", "start-reference", "run-conformance", "run-fuzz", "run-load", "run-gate"])
      expect(project.filter((u) => u.includes(heavy))).toEqual([]);
  });
});
