// bin/relaunch.js (issue 12): which command lines start Node again with the reference's V8 flags, and the thin
// parent's contract with its child, on a small script instead of the reference (whose start takes seconds; the
// reference's own case is reference/test/reference-relaunch.test.ts): flags given, signals passed on once, the
// child's end mirrored, the parent's end the child's.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { processEnded, processState } from "../../../test-support/process-state.ts";
import { REFERENCE_NODE_FLAGS, relaunchFlags } from "./relaunch.js";

describe("relaunchFlags", () => {
  const none: Record<string, string> = {};
  it("relaunches the reference's server only, with the flags Node lacks", () => {
    expect(relaunchFlags(["reference"], [], none)).toEqual(REFERENCE_NODE_FLAGS);
    expect(relaunchFlags(["reference", "--port", "0"], ["--max-old-space-size=512"], none)).toEqual([
      "--single-threaded-gc",
    ]);
    expect(relaunchFlags(["reference", "--port", "0"], ["--single-threaded-gc"], none)).toEqual([]);
    for (const sub of ["keys", "auth-server", "index", "payments"])
      expect(relaunchFlags(["reference", sub], [], none)).toEqual([]);
    for (const help of [["--help"], ["--port", "0", "-h"], ["-V"]])
      expect(relaunchFlags(["reference", ...help], [], none)).toEqual([]);
    for (const cmd of [[], ["mock"], ["conformance", "--target", "x"], ["bench", "crawl-load"]])
      expect(relaunchFlags(cmd, [], none)).toEqual([]);
  });

  it("runs in one process when asked (PLUMBLINE_RELAUNCH=0) or under an inspector", () => {
    expect(relaunchFlags(["reference"], [], { PLUMBLINE_RELAUNCH: "0" })).toEqual([]);
    expect(relaunchFlags(["reference"], [], { PLUMBLINE_RELAUNCH: "1" })).toEqual(REFERENCE_NODE_FLAGS);
    for (const f of ["--inspect", "--inspect=9230", "--inspect-brk", "--inspect-wait=0"])
      expect(relaunchFlags(["reference"], [f], none)).toEqual([]);
    expect(relaunchFlags(["reference"], ["--inspect-port=9230"], none)).toEqual(REFERENCE_NODE_FLAGS);
  });
});

// The script is its own parent: without the flag it relaunches itself; with it, it is the "server": it listens for
// SIGINT and its parent's end (relaunch.js's parentEnded), writes its pid and Node flags, then does what its argument
// says. "slow-start" loads relaunch.js only after a second of work, as the reference loads its modules.
const RELAUNCH = JSON.stringify(new URL("./relaunch.js", import.meta.url).href);
const SCRIPT = `
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
const [out, mode] = process.argv.slice(2);
const log = (line) => writeFileSync(out, line + "\\n", { flag: "a" });
if (!process.execArgv.includes("--single-threaded-gc")) {
  const { relaunch } = await import(${RELAUNCH});
  await relaunch(fileURLToPath(import.meta.url), process.argv.slice(2), ["--single-threaded-gc"]);
}
if (mode === "slow-start") {
  log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv }));
  const until = Date.now() + 1_000;
  while (Date.now() < until);
}
const { parentEnded } = await import(${RELAUNCH});
let signals = 0;
process.on("SIGINT", () => { signals++; setTimeout(() => { log("SIGINT x" + signals); process.exit(0); }, 300); });
parentEnded().then((why) => { log(why); process.exit(0); });
setInterval(() => {}, 1000);
// written once it listens: the test signals it as soon as it reads this
if (mode !== "slow-start") log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv }));
if (mode === "exit-3") process.exit(3);
if (mode === "kill-self") process.kill(process.pid, "SIGKILL");
`;

let dir: string;
let script: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "plumbline-relaunch-"));
  script = join(dir, "server.mjs");
  writeFileSync(script, SCRIPT);
});
// a server a failed test left running (its own session: it would outlive the test run)
const servers: number[] = [];
afterAll(() => {
  for (const pid of servers) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function start(mode: string, execArgv: string[] = [], wrap: string[] = []) {
  const out = join(dir, `${mode}-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(out, "");
  const command = [...wrap, process.execPath, ...execArgv, script, out, mode];
  const parent = spawn(command[0], command.slice(1), { stdio: "ignore" });
  const ended = new Promise<[number | null, string | null]>((r) => parent.once("exit", (c, s) => r([c, s])));
  const lines = () => readFileSync(out, "utf8").split("\n").filter(Boolean);
  const server = async () => {
    await vi.waitFor(() => expect(lines().length).toBeGreaterThan(0), { timeout: 10_000 });
    const server = JSON.parse(lines()[0]) as { pid: number; execArgv: string[] };
    servers.push(server.pid);
    return server;
  };
  return { parent, ended, lines, server };
}

const alive = (pid: number) => !processEnded(pid);

describe("relaunch", () => {
  it("starts a child Node with Node's own flags and the added ones", async () => {
    const run = start("wait", ["--max-old-space-size=300"]);
    const server = await run.server();
    expect(server.pid).not.toBe(run.parent.pid);
    expect(server.execArgv).toEqual(["--max-old-space-size=300", "--single-threaded-gc"]);
    run.parent.kill("SIGINT");
    expect(await run.ended).toEqual([0, null]);
  });

  it("passes a signal on once and ends with the child's exit code", async () => {
    const run = start("wait");
    const { pid } = await run.server();
    run.parent.kill("SIGINT");
    expect(await run.ended).toEqual([0, null]);
    expect(run.lines()).toContain("SIGINT x1");
    expect(alive(pid)).toBe(false);
    expect(await start("exit-3").ended).toEqual([3, null]);
  });

  it("ends by the signal that ended the child", async () => {
    expect(await start("kill-self").ended).toEqual([null, "SIGKILL"]);
  });

  // "slow-start" writes its pid before its second of work, before it watches its parent
  it.each([
    ["once the child runs", "wait"],
    ["while the child still starts", "slow-start"],
  ])("takes the child down when it is killed itself (kill -9) %s", async (_when, mode) => {
    const run = start(mode);
    const { pid } = await run.server();
    run.parent.kill("SIGKILL");
    await run.ended;
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000 });
    expect(run.lines()).toContain("parent process ended");
  });

  it("stops and continues the child with itself (a terminal's Ctrl-Z, fg)", async () => {
    const run = start("wait");
    const { pid } = await run.server();
    run.parent.kill("SIGTSTP");
    await vi.waitFor(() => expect([processState(run.parent.pid as number), processState(pid)]).toEqual(["T", "T"]), {
      timeout: 30_000,
    });
    run.parent.kill("SIGCONT");
    await vi.waitFor(() => expect([processState(run.parent.pid as number), processState(pid)]).not.toContain("T"), {
      timeout: 30_000,
    });
    run.parent.kill("SIGINT");
    expect(await run.ended).toEqual([0, null]);
  });

  // as PID 1 (a container's first process) it has no default action for a signal it raises on itself
  const unshare = spawnSync("unshare", ["-pf", "--mount-proc", "true"]).status === 0;
  it.runIf(unshare)("as PID 1, ends with 128 + the signal that ended the child", async () => {
    const run = start("kill-self", [], ["unshare", "-pf", "--mount-proc"]);
    expect(await run.ended).toEqual([128 + 9, null]);
  });

  it("runs the child in a session of its own, so a terminal's Ctrl-C reaches it once, through the parent", async () => {
    const run = start("wait");
    const { pid } = await run.server();
    const sid = (p: number) => readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ")[3];
    expect(sid(pid)).toBe(String(pid));
    expect(sid(pid)).not.toBe(sid(run.parent.pid as number));
    (run.parent as ChildProcess).kill("SIGTERM");
    // SIGTERM's default ends the child; the parent ends as it did
    expect(await run.ended).toEqual([null, "SIGTERM"]);
  });
});
