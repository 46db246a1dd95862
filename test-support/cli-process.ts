// A `plumbline` command started as a child process, resolved with the URL it prints once listening ("… listening
// on http://…"), as a CI job would see it; `stop()` sends SIGTERM and waits for the exit. Test glue only: the
// mock and reference launchers are this with their own arguments.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serverPid } from "./thread-cpu.ts";

/** The repository's launcher of the sources (tsx): the `bench` commands, which are never built, run from it. */
export const SOURCE_BIN = fileURLToPath(new URL("../bin/plumbline.js", import.meta.url));
/** The built command, as installed packages run it (the globalSetup test-support/built-packages.ts keeps it fresh). */
export const BUILT_BIN = fileURLToPath(new URL("../packages/cli/dist/plumbline.js", import.meta.url));
/** What tests start as `plumbline`: the built command, or the sources with PLUMBLINE_TEST_FROM_SOURCES=1. */
export const BIN = process.env.PLUMBLINE_TEST_FROM_SOURCES === "1" ? SOURCE_BIN : BUILT_BIN;
/** The entry that runs ARGS: `bench …` from the sources (the benchmarks are not built), anything else BIN. */
export const binFor = (args: string[]): string => (args[0] === "bench" ? SOURCE_BIN : BIN);

export interface CliProcess {
  url: string;
  child: ChildProcess;
  /** The process that serves: `plumbline reference` serves from a child Node it starts (bin/relaunch.js). */
  serverPid(): number;
  stop(): Promise<void>;
}

/** `cleanup` runs once the process is gone, whether it stopped, failed to start or exited on its own. */
export function startCliProcess(args: string[], name: string, cleanup: () => void = () => {}): Promise<CliProcess> {
  const child = spawn(process.execPath, [binFor(args), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the ${name} did not start: ${out}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      cleanup();
      reject(new Error(`the ${name} exited with ${code}: ${out}`)); // no-op once resolved
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        child,
        serverPid: () => serverPid(child.pid as number),
        stop: () =>
          new Promise<void>((r) => {
            if (child.exitCode !== null || child.signalCode !== null) return r();
            child.once("exit", () => r());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/**
 * A `plumbline` command run to its end, as a CI step runs it: its exit code and what it printed. GITHUB_ACTIONS is
 * left out of its environment unless `env` gives it (under GitHub Actions it turns annotations on).
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { GITHUB_ACTIONS: _, ...env } = process.env;
  const child = spawn(process.execPath, [binFor(args), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: options.cwd,
    env: { ...env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** `runCli` with what it printed on either stream as one text (stdout, then stderr): for checks line by line. */
export async function runCliOutput(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; out: string }> {
  const r = await runCli(args, options);
  return { code: r.code, out: r.stdout + r.stderr };
}
