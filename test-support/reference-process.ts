// Starts the reference through the CLI as a child process on port 0, on a throw-away SQLite data directory (or
// the PostgreSQL of PLUMBLINE_TEST_DATABASE_URL when `postgres` is asked), and reads its URL from the line it
// prints, as a CI job would: the client folders (conformance, fuzz, load) never import the reference. Test glue.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliProcess, startCliProcess } from "./cli-process.ts";

export type ReferenceProcess = CliProcess;

export interface ReferenceProcessOptions {
  /** KEY:CREDITS pairs seeded at start. */
  keys: string[];
  /** Extra flags, e.g. ["--rate-limit", "0"]. */
  args?: string[];
  /** --allow-private-network (default true: fixture sites on loopback); false: a stand-in for a remote deployment */
  allowPrivateNetwork?: boolean;
  /** A PostgreSQL URL instead of a fresh SQLite directory. */
  databaseUrl?: string;
}

export function startReferenceProcess(options: ReferenceProcessOptions): Promise<ReferenceProcess> {
  const dataDir = options.databaseUrl ? null : mkdtempSync(join(tmpdir(), "plumbline-ref-"));
  const store = options.databaseUrl ? ["--database-url", options.databaseUrl] : ["--data-dir", dataDir as string];
  const args = [
    "reference",
    "--port",
    "0",
    ...(options.allowPrivateNetwork === false ? [] : ["--allow-private-network"]),
    ...store,
  ];
  for (const k of options.keys) args.push("--key", k);
  return startCliProcess([...args, ...(options.args ?? [])], "reference", () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
}
