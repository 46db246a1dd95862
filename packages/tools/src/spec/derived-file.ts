// A file derived from a source of truth (spec/types.gen.ts, spec/DECISIONS.md, docs/cli.md, conformance/README.md's
// coverage table): printed, written, or checked against what is committed (exit 1 when stale, naming the command
// that rewrites it). The tests run every check, so a derived file cannot drift.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export type DerivedMode = "print" | "write" | "check";

export function derivedMode(opts: { write?: boolean; check?: boolean }): DerivedMode {
  return opts.write ? "write" : opts.check ? "check" : "print";
}

export async function derivedFile(
  path: URL,
  render: () => Promise<string> | string,
  mode: DerivedMode,
  rewrite: string,
): Promise<number> {
  const file = fileURLToPath(path);
  if (mode !== "print" && !existsSync(dirname(file))) {
    console.error(
      `${file} is a file of plumbline's repository: --write and --check run there (without them the text is printed)`,
    );
    return 2;
  }
  const text = await render();
  if (mode === "write") {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
    return 0;
  }
  if (mode === "check") {
    if (readFileSync(file, "utf8") !== text) {
      console.error(`${file} is stale: run \`${rewrite}\``);
      return 1;
    }
    console.log(`${file}: up to date`);
    return 0;
  }
  process.stdout.write(text);
  return 0;
}
