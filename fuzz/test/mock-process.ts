// The mock as a CI job runs it: the CLI as a child process on port 0, its URL read from the line it prints;
// `stop()` ends that one process.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/plumbline.js", import.meta.url));

/** The mock the fuzz tests fuzz: a manual clock (exact deepcrawl states), no rate limit, one funded key. */
export const MOCK_ARGS = ["--clock", "manual", "--rate-limit", "0", "--key", "fuzz-key:1000000000"];
export const MOCK_KEY = "fuzz-key";

export interface MockProcess {
  url: string;
  stop(): Promise<void>;
}

export function startMockProcess(args: string[] = MOCK_ARGS): Promise<MockProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, "mock", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the mock did not start: ${out}`)), 30_000);
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const stop = () =>
        new Promise<void>((r) => {
          if (child.exitCode !== null) return r();
          child.once("exit", () => r());
          child.kill("SIGTERM");
        });
      resolve({ url: m[1], stop });
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.once("exit", (code) => reject(new Error(`the mock exited with ${code}: ${out}`)));
  });
}
