// `plumbline reference` serves from a Node started with --single-threaded-gc (bin/relaunch.js; issue 12): the server
// is a child of the command, which stays as a thin parent. What an operator relies on: the server has the flag, it
// closes when the command is killed outright (no server left holding the port and the database), and SIGTERM's
// graceful close and exit 0 go through the parent (reference-cli.test.ts).
import { readFileSync } from "node:fs";
import { afterAll, expect, it, vi } from "vitest";
import { type ReferenceProcess, startReferenceProcess } from "../../test-support/reference-process.ts";

let ref: ReferenceProcess | undefined;
afterAll(async () => ref?.stop());

const gone = (pid: number) => {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return true;
  }
};

it.runIf(process.platform === "linux")(
  "serves from a child Node with the flag, which closes when the command is killed with SIGKILL",
  async () => {
    ref = await startReferenceProcess({ keys: ["relaunch-key:5"] });
    const server = ref.serverPid();
    expect(server).not.toBe(ref.child.pid);
    expect(readFileSync(`/proc/${server}/cmdline`, "utf8").split("\0")).toContain("--single-threaded-gc");
    expect((await fetch(`${ref.url}/health`)).status).toBe(200);
    let out = "";
    ref.child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });

    ref.child.kill("SIGKILL");
    await vi.waitFor(() => expect(gone(server)).toBe(true), { timeout: 20_000, interval: 100 });
    await expect(fetch(`${ref.url}/health`)).rejects.toThrow();
    // it closed as on SIGTERM (its output is the parent's, inherited: the pipe outlives the parent)
    expect(out).toContain("parent process ended: closing");
  },
  60_000,
);
