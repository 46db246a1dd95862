// Prism (the peer we measure against) on a free loopback port, mocking or proxying spec/openapi.yaml. Test glue.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const PRISM = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const SPEC = fileURLToPath(new URL("../packages/contract/src/openapi.yaml", import.meta.url));

export interface RunningPrism {
  url: string;
  stop(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `prism mock SPEC` (no upstream) or `prism proxy SPEC UPSTREAM` (with extra flags such as `--errors`). */
export async function startPrism(upstream?: string, flags: string[] = []): Promise<RunningPrism> {
  const port = await freePort();
  const args = upstream ? ["proxy", SPEC, upstream] : ["mock", SPEC];
  const prism = spawn(PRISM, [...args, ...flags, "-p", String(port), "-h", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${log}`)), 60_000);
    prism.stdout?.on("data", (d) => {
      log += d;
      if (log.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    prism.stderr?.on("data", (d) => {
      log += d;
    });
    prism.on("exit", (code) => reject(new Error(`prism exited with ${code}:\n${log}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => prism.kill("SIGTERM") };
}
