// Starts the mock through the CLI as a child process on port 0 and reads its URL from the line it prints, as a CI
// job would (the client folders never import the mock); `stop()` ends that one process. Test glue only.
import { type CliProcess, startCliProcess } from "./cli-process.ts";

export { BIN } from "./cli-process.ts";
export type MockProcess = CliProcess;

export function startMockProcess(args: string[]): Promise<MockProcess> {
  return startCliProcess(["mock", "--port", "0", ...args], "mock");
}
