// Starts the reference through the CLI as a child process on port 0, on a throw-away SQLite data directory (or
// the PostgreSQL of PLUMBLINE_TEST_DATABASE_URL when `postgres` is asked), and reads its URL from the line it
// prints, as a CI job would: the client folders (conformance, fuzz, load) never import the reference. Test glue.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "./mock-process.ts";

export interface ReferenceProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface ReferenceProcessOptions {
  /** KEY:CREDITS pairs seeded at start. */
  keys: string[];
  /** Extra flags, e.g. ["--rate-limit", "0"]. Private-network fetching is always allowed (fixture sites). */
  args?: string[];
  /** A PostgreSQL URL instead of a fresh SQLite directory. */
  databaseUrl?: string;
}

export function startReferenceProcess(options: ReferenceProcessOptions): Promise<ReferenceProcess> {
  const dataDir = options.databaseUrl ? null : mkdtempSync(join(tmpdir(), "plumbline-ref-"));
  const store = options.databaseUrl ? ["--database-url", options.databaseUrl] : ["--data-dir", dataDir as string];
  const args = [BIN, "reference", "--port", "0", "--allow-private-network", ...store];
  for (const k of options.keys) args.push("--key", k);
  const child = spawn(process.execPath, [...args, ...(options.args ?? [])], { stdio: ["ignore", "pipe", "pipe"] });
  const cleanup = () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      cleanup();
      reject(new Error(`the reference did not start: ${out}`));
    }, 60_000);
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        child,
        stop: () =>
          new Promise<void>((r) => {
            const done = () => {
              cleanup();
              r();
            };
            if (child.exitCode !== null) return done();
            child.once("exit", done);
            child.kill("SIGTERM");
          }),
      });
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      cleanup();
      reject(new Error(`the reference exited with ${code}: ${out}`));
    });
  });
}
