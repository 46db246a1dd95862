// Test glue: runs `plumbline gate` as a CI step does (a child process, its own report folder) and reads its JUnit file.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../../../../../test-support/mock-process.ts";

const dirs: string[] = [];

/** Removes every report folder the runs made (call in afterAll). */
export function removeGateReports(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A temporary folder removed with the reports. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export function gate(args: string[]): Promise<{ code: number; out: string; dir: string }> {
  const dir = tempDir("plumbline-gate-");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, "gate", ...args, "--report-dir", dir],
      { timeout: 170_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === "number" ? code : 1, out: stdout + stderr, dir });
      },
    );
  });
}

export const junitSuites = (dir: string) =>
  [...readFileSync(join(dir, "junit.xml"), "utf8").matchAll(/<testsuite name="([^"]+)"[^>]*failures="(\d+)"/g)].map(
    (m) => [m[1], Number(m[2])],
  );
