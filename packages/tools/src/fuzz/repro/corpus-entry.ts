// The replay file (issue 6 "Reproduction"): a target-independent request, or a sequence of model commands, with
// what the contract expects of it and how it was found. Files in fuzz/corpus/ are replayed by `npm test` forever.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckFailure } from "../checks/check-failure.ts";
import type { FuzzCase } from "../fuzz-case.ts";
import type { CommandSpec } from "../model/model-command.ts";

export type PropertyName = "valid-input" | "invalid-input" | "stateful-model";
export const ALL_PROPERTIES: PropertyName[] = ["valid-input", "invalid-input", "stateful-model"];

export interface CorpusEntry {
  id: string;
  property: PropertyName;
  description: string;
  /** valid or invalid input: the request, with its violation (the expectation) when invalid */
  case?: FuzzCase;
  /** stateful model: the starting balance (on a target with /__mock) and the commands that ran */
  sequence?: { credits: number; commands: CommandSpec[] };
  /** how the fuzzer found it; absent for hand-written seeds */
  found?: { target: string; seed: number; path: string | null; at: string; failures: CheckFailure[] };
}

export type CorpusRead =
  | { ok: true; entries: Array<{ file: string; entry: CorpusEntry }> }
  | { ok: false; reason: string };

function isEntry(v: unknown): v is CorpusEntry {
  const e = v as CorpusEntry;
  return (
    typeof e?.id === "string" && typeof e.property === "string" && (e.case !== undefined || e.sequence !== undefined)
  );
}

/** A corpus file, or every `.json` file of a folder (not recursive, sorted). */
export function readCorpus(path: string): CorpusRead {
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch (e) {
    return { ok: false, reason: `cannot read ${path}: ${(e as Error).message}` };
  }
  const entries: Array<{ file: string; entry: CorpusEntry }> = [];
  for (const file of files) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      return { ok: false, reason: `${file}: ${(e as Error).message}` };
    }
    if (!isEntry(json)) return { ok: false, reason: `${file}: not a corpus entry (id, property, case or sequence)` };
    entries.push({ file, entry: json });
  }
  return { ok: true, entries };
}

export function writeCorpusEntry(dir: string, entry: CorpusEntry): string {
  const file = join(dir, `${entry.id}.json`);
  writeFileSync(file, `${JSON.stringify(entry, null, 2)}\n`);
  return file;
}
