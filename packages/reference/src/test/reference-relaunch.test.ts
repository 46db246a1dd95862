// `plumbline reference` serves from a Node started with --single-threaded-gc (bin/relaunch.js; issue 12): the server
// is a child of the command, which stays as a thin parent. What an operator relies on: the server has the flag, it
// closes when the command is killed outright (no server left holding the port and the database), and SIGTERM's
// graceful close and exit 0 go through the parent (reference-cli.test.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { BIN } from "../../../../test-support/cli-process.ts";
import { processEnded } from "../../../../test-support/process-state.ts";
import { type ReferenceProcess, startReferenceProcess } from "../../../../test-support/reference-process.ts";
import { serverPid } from "../../../../test-support/thread-cpu.ts";

let ref: ReferenceProcess | undefined;
afterAll(async () => ref?.stop());

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
    await vi.waitFor(() => expect(processEnded(server)).toBe(true), { timeout: 20_000, interval: 100 });
    await expect(fetch(`${ref.url}/health`)).rejects.toThrow();
    // it closed as on SIGTERM (its output is the parent's, inherited: the pipe outlives the parent)
    expect(out).toContain("parent process ended: closing");
  },
  60_000,
);

it.runIf(process.platform === "linux")(
  "closes once, exit 0, when SIGTERM reaches the parent and the server at once (systemd's control-group stop)",
  async () => {
    const r = await startReferenceProcess({ keys: ["relaunch-key:5"] });
    let out = "";
    r.child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const server = r.serverPid();
    const ended = new Promise<unknown[]>((done) => r.child.once("exit", (...end) => done(end)));
    process.kill(server, "SIGTERM");
    r.child.kill("SIGTERM");
    expect(await ended).toEqual([0, null]);
    expect(out.match(/SIGTERM: closing/g)).toHaveLength(1);
    expect(processEnded(server)).toBe(true);
  },
  60_000,
);

it.runIf(process.platform === "linux")(
  "a server whose command is killed while it starts does not stay",
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "plumbline-relaunch-"));
    const r = spawn(process.execPath, [BIN, "reference", "--port", "0", "--data-dir", dataDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    r.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    let server = 0;
    await vi.waitFor(
      () => {
        server = serverPid(r.pid as number);
        expect(server).not.toBe(r.pid);
      },
      { timeout: 30_000, interval: 20 },
    );
    r.kill("SIGKILL"); // while the server is still loading its modules (it takes seconds)
    await vi.waitFor(() => expect(processEnded(server)).toBe(true), { timeout: 40_000, interval: 200 });
    // it may have started and closed, or ended before listening; it never keeps serving
    if (out.includes("listening on")) expect(out).toContain("parent process ended: closing");
    rmSync(dataDir, { recursive: true, force: true });
  },
  60_000,
);
