// `plumbline reference` serves from a Node started with the V8 flags its parsing needs (issue 12). With V8's
// parallel collectors, three isolates (the event loop and two parse threads) on two saturated cores spent 5-7 ms
// of helper-thread CPU per crawl and a parse cost 10-20% more CPU beside another than alone; with
// `--single-threaded-gc` the helpers fell to 3-4 ms per crawl and the pool's parse to the one thread's (load/README,
// crawl-load). V8 reads that flag when it starts: set at run time it aborts the process (`Check failed:
// concurrent_marking_handle_`), and Node refuses it in NODE_OPTIONS. So the command starts Node again, with the
// flag, as a child that is the server, and stays as a thin parent (Node has no execve before v23.11):
// - signals a process manager or a terminal sends the parent are passed on, once: the child runs in a session of
//   its own, so a terminal's Ctrl-C reaches the parent only and the server sees one SIGINT, not two;
// - the child's end is the parent's: the same exit code, or the same signal raised again;
// - the parent's end is the child's: the child watches an IPC channel, which closes when the parent dies however it
//   died (kill -9 included), and then shuts down as on SIGTERM (reference/cli.ts).
// Plain JavaScript: it runs before tsx is loaded, so the parent stays small (~45 MB RSS) and starts in ~50 ms.
import { spawn } from "node:child_process";
import { constants } from "node:os";

/** The V8 flags `plumbline reference` needs at Node's start. */
export const REFERENCE_NODE_FLAGS = ["--single-threaded-gc"];

/** Signals passed on to the server as they are (SIGUSR1 opens its inspector). */
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2"];

/** Set in the server's environment: it was started by a parent that it must not outlive. */
const MARKER = "PLUMBLINE_RELAUNCHED";

/**
 * The flags to start Node again with for this command line, or [] to run in this process: only the server
 * (`reference` with no sub-command, not asked for its help) is relaunched; not when Node already has the flags, when it was started with an
 * inspector, on its command line or in NODE_OPTIONS (the child could not open the same port; debug in one process),
 * or when PLUMBLINE_RELAUNCH=0.
 * @param {string[]} argv the command's arguments (after `plumbline`)
 * @param {string[]} execArgv Node's own flags
 * @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function relaunchFlags(argv, execArgv, env) {
  if (argv[0] !== "reference" || (argv[1] !== undefined && !argv[1].startsWith("-"))) return [];
  // help and the version are printed, not served
  if (argv.some((a) => a === "--help" || a === "-h" || a === "--version" || a === "-V")) return [];
  if (env.PLUMBLINE_RELAUNCH === "0") return [];
  const inspect = /^--inspect(-brk|-wait)?(=|$)/;
  if (execArgv.some((a) => inspect.test(a)) || (env.NODE_OPTIONS ?? "").split(/\s+/).some((a) => inspect.test(a)))
    return [];
  return REFERENCE_NODE_FLAGS.filter((f) => !execArgv.includes(f));
}

/**
 * Runs `script argv` in a new Node with `flags` added to this one's, mirroring its end; resolves never (the parent
 * exits as the child did).
 * @param {string} script
 * @param {string[]} argv
 * @param {string[]} flags
 * @returns {Promise<never>}
 */
export function relaunch(script, argv, flags) {
  const child = spawn(process.execPath, [...process.execArgv, ...flags, script, ...argv], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    detached: true,
    env: { ...process.env, [MARKER]: "1" },
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  /** @type {Array<[NodeJS.Signals, () => void]>} */
  const handlers = FORWARDED.map((signal) => [
    /** @type {NodeJS.Signals} */ (signal),
    () => {
      if (running()) child.kill(/** @type {NodeJS.Signals} */ (signal));
    },
  ]);
  // job control: the child has a session of its own, so a terminal's Ctrl-Z (and `fg`) reach the parent only
  handlers.push(
    [
      "SIGTSTP",
      () => {
        if (running()) child.kill("SIGSTOP");
        process.kill(process.pid, "SIGSTOP");
      },
    ],
    ["SIGCONT", () => running() && child.kill("SIGCONT")],
  );
  for (const [s, h] of handlers) process.on(s, h);
  return new Promise(() => {
    child.once("error", (e) => {
      console.error(`plumbline: could not start the server's Node: ${e.message}`);
      process.exit(1);
    });
    child.once("exit", (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      if (signal === null) process.exit(code ?? 1);
      process.kill(process.pid, signal);
      // still here: a signal whose default does not end Node (SIGUSR1 opens its inspector), or the parent is PID 1
      // (in a container), which the kernel does not end by a signal it has no handler for: exit as a shell reports it
      setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
    });
  });
}

// kept on the process, not in this module: under tsx the module may be loaded a second time, after the marker is gone
const PARENT_END = Symbol.for("plumbline.parentEnded");

/**
 * In a server started by relaunch(): resolves when its parent ends, however it died (kill -9 included: the IPC
 * channel closes), even before this was first called (the watch starts when this module loads, first thing in
 * bin/plumbline.js, and a parent gone before that is known by the marker without a channel). Never resolves
 * elsewhere. The channel does not keep the process alive.
 * @returns {Promise<string>}
 */
export function parentEnded() {
  /** @type {{ [PARENT_END]?: Promise<string> }} */
  const store = /** @type {any} */ (process);
  store[PARENT_END] ??= new Promise((resolve) => {
    if (process.env[MARKER] !== "1") return;
    delete process.env[MARKER]; // not for the server's own children (Chromium)
    if (!process.channel || !process.connected) return resolve("parent process ended");
    process.channel.unref();
    process.once("disconnect", () => resolve("parent process ended"));
  });
  return store[PARENT_END];
}
parentEnded();
