// Starts the mock through the CLI as a child process on port 0 and reads its URL from the line it prints, as a CI
// job would (the client folders never import the mock); `stop()` ends that one process. Test glue only.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../bin/plumbline.js", import.meta.url));

export interface MockProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startMockProcess(args: string[]): Promise<MockProcess> {
  const child = spawn(process.execPath, [BIN, "mock", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the mock did not start: ${out}`)), 30_000);
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
            if (child.exitCode !== null) return r();
            child.once("exit", () => r());
            child.kill("SIGTERM");
          }),
      });
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.once("exit", (code) => reject(new Error(`the mock exited with ${code}: ${out}`)));
  });
}
