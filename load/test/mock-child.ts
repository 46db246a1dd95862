// Starts the mock through the CLI as a child process on port 0 and reads its URL from what it prints, as a CI
// job would (load/ is a client: it never imports the mock). `stop()` ends that one process.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/plumbline.js", import.meta.url));

export interface MockChild {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startMockChild(args: string[]): Promise<MockChild> {
  const child = spawn(process.execPath, [BIN, "mock", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mock did not start: ${out}`)), 30_000);
    child.stderr?.on("data", (c: Buffer) => {
      out += c;
    });
    child.stdout?.on("data", (c: Buffer) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`the mock exited with ${code}: ${out}`)));
  });
}
