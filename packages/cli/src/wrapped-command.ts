// `plumbline mock|proxy|reference [options] -- CMD …`: a server that lives for one command, as a CI step wants it
// (start-server-and-test's job): the server is started and listening, CMD runs with its address and key in the
// environment, then the server is closed and the exit code is CMD's (the proxy's verdict joins it). One process
// for npx to wait on: no `&`, no `kill` (`npx` dies of a SIGTERM meant for the server and exits 143 whatever the
// server said).
// - CMD runs in a process group of its own when stdin is not a terminal (CI): a SIGINT, SIGTERM or SIGHUP sent to
//   plumbline is passed to that whole group, once, and whatever CMD left running in it is sent SIGTERM when CMD
//   ends, so nothing outlives the step. On a terminal CMD stays in the terminal's group (it may read keys, and
//   Ctrl-C reaches it from the terminal itself, so SIGINT is not passed on a second time).
// - npx ends on a SIGTERM without passing it on (its child is left running, reparented): so the processes that
//   started plumbline (up to three: npx, its shell, the thin parent of `reference`) are watched, and when one is
//   gone CMD is stopped as on SIGTERM.
// - CMD killed by a signal exits as a shell reports it: 128 + the signal's number.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { constants } from "node:os";
import { type CommandUnknownOpts, usageError } from "./command-kit.js";

/** The argument every wrapping command declares, and its help. */
export const WRAPPED_ARGUMENT = "[command...]";
export const WRAPPED_USAGE = "[options] [-- command ...]";
export const wrappedArgumentHelp = (what: string) =>
  `after --: a command to run once the ${what} listens, with its address in $PLUMBLINE_URL; the ${what} is closed when it ends and the exit code is the command's`;

/**
 * The command given after `--`, or undefined when there is none. Words before `--` that commander took as operands
 * are refused (a typo of an option would otherwise run as a program).
 */
export function wrappedCommand(cmd: CommandUnknownOpts, operands: string[]): string[] | undefined {
  let root = cmd;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs: string[] }).rawArgs;
  const dashes = raw.indexOf("--");
  const after = dashes === -1 ? [] : raw.slice(dashes + 1);
  if (operands.length === 0) {
    if (dashes !== -1) usageError(cmd, "nothing to run after --: give a command, e.g. -- npm test");
    return undefined;
  }
  if (dashes === -1 || operands.length !== after.length || operands.some((o, i) => o !== after[i]))
    usageError(
      cmd,
      `unexpected argument ${JSON.stringify(operands[0])}: a command to run goes after --, e.g. -- npm test`,
    );
  return operands;
}

/** What a wrapped command finds in its environment. Unset values are left as the caller's environment has them. */
export type WrappedEnv = Record<string, string | undefined>;

/**
 * The variables naming a server's address and key: plumbline's own (conform, gate, fuzz and load read
 * PLUMBLINE_API_KEY, PLUMBLINE_BROKE_API_KEY and PLUMBLINE_PAYMENT_KEY for their flags) and those the service's
 * official clients read (the TypeScript and Python SDKs SEARCH1API_API_KEY, its CLI and MCP server
 * SEARCH1API_KEY; they take the base URL only as an option, so pass them $PLUMBLINE_URL).
 */
export function serverEnv(o: { url: string; apiKey?: string; brokeApiKey?: string; paymentKey?: string }): WrappedEnv {
  return {
    PLUMBLINE_URL: o.url,
    PLUMBLINE_API_KEY: o.apiKey,
    SEARCH1API_API_KEY: o.apiKey,
    SEARCH1API_KEY: o.apiKey,
    PLUMBLINE_BROKE_API_KEY: o.brokeApiKey,
    PLUMBLINE_PAYMENT_KEY: o.paymentKey,
  };
}

/** The key a wrapped command gets among the server's accounts: the first with credits, and the first broke one. */
export function pickKeys(keys: ReadonlyArray<{ key: string; credits: number }>): {
  apiKey?: string;
  brokeApiKey?: string;
} {
  const funded = keys.find((k) => k.credits > 0) ?? keys[0];
  return { apiKey: funded?.key, brokeApiKey: keys.find((k) => k.credits === 0 && k !== funded)?.key };
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** This process's parent and theirs (Linux's /proc; the parent alone elsewhere), at most `n`, init excluded. */
function ancestors(n: number): number[] {
  const pids: number[] = [];
  for (let pid = process.ppid; pid > 1 && pids.length < n; ) {
    pids.push(pid);
    try {
      pid = Number(
        readFileSync(`/proc/${pid}/stat`, "utf8")
          .replace(/^.*\) /s, "")
          .split(" ")[1],
      );
    } catch {
      break;
    }
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** How `runWrapped` runs a command besides the default (its output shared with this process, no time limit). */
export interface WrappedRunOptions {
  /** CMD's stdout and stderr go here instead of this process's (its stdin is then closed): `plumbline edges` keeps
   * each run's output apart when runs go in parallel */
  onOutput?: (chunk: Buffer) => void;
  /** CMD (its group in CI) is sent SIGTERM after this many ms, SIGKILL 5 s later; it then resolves 124, as
   * coreutils' `timeout` exits */
  timeoutMs?: number;
}

/** The exit code of a wrapped command stopped by `timeoutMs`. */
export const TIMED_OUT = 124;

/**
 * Runs `argv` (no shell: the words as given) with `env` added to this process's environment, passing signals on as
 * described above; resolves with its exit code once it has ended. A command that cannot start (not found, not
 * executable) is reported and resolves 127 or 126, as a shell would.
 */
export function runWrapped(
  argv: string[],
  env: WrappedEnv,
  label: string,
  options: WrappedRunOptions = {},
): Promise<number> {
  const [file, ...args] = argv;
  const group = !process.stdin.isTTY;
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) merged[k] = v;
  const { onOutput, timeoutMs } = options;
  const child = spawn(file as string, args, {
    stdio: onOutput ? ["ignore", "pipe", "pipe"] : "inherit",
    env: merged,
    detached: group,
  });
  // every byte of output read (a command's last lines say why it failed), however it ended
  const drained = onOutput
    ? Promise.all(
        [child.stdout, child.stderr].map(
          (stream) =>
            new Promise<void>((resolve) => {
              if (!stream) return resolve();
              stream.on("data", onOutput);
              stream.once("close", () => resolve());
              stream.once("error", () => resolve());
            }),
        ),
      )
    : Promise.resolve();
  const pid = child.pid;
  const signalGroup = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    try {
      if (group) process.kill(-pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  const handlers = FORWARDED.filter((s) => group || s !== "SIGINT").map(
    (s) => [s, () => signalGroup(s)] as [NodeJS.Signals, () => void],
  );
  // a terminal's Ctrl-C reaches CMD directly; plumbline must outlive it to close the server
  const ignoreInt = () => {};
  if (!group) process.on("SIGINT", ignoreInt);
  for (const [s, h] of handlers) process.on(s, h);
  const launchers = ancestors(3);
  const watch = setInterval(() => {
    if (launchers.every(alive)) return;
    clearInterval(watch);
    console.error(`plumbline ${label}: the process that started it ended; stopping ${file} (SIGTERM)`);
    signalGroup("SIGTERM");
  }, 500);
  watch.unref();
  let timedOut = false;
  let kill: NodeJS.Timeout | undefined;
  const limit =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          console.error(`plumbline ${label}: ${file} ran past ${timeoutMs} ms; stopping it (SIGTERM)`);
          signalGroup("SIGTERM");
          kill = setTimeout(() => signalGroup("SIGKILL"), 5000);
        }, timeoutMs);
  return new Promise((resolve) => {
    let ended = false;
    const done = (code: number) => {
      if (ended) return;
      ended = true;
      clearTimeout(limit);
      clearTimeout(kill);
      clearInterval(watch);
      for (const [s, h] of handlers) process.off(s, h);
      if (!group) process.off("SIGINT", ignoreInt);
      // what CMD started and left behind in its group
      if (group) signalGroup("SIGTERM");
      const result = timedOut ? TIMED_OUT : code;
      if (!onOutput) return resolve(result);
      // what it left running may hold the pipes open: its output is waited for 2 s at most
      const late = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, 2000);
      drained.then(() => {
        clearTimeout(late);
        resolve(result);
      });
    };
    child.once("error", (err: NodeJS.ErrnoException) => {
      console.error(`plumbline ${label}: could not run ${file}: ${err.message}`);
      done(err.code === "ENOENT" ? 127 : 126);
    });
    child.once("exit", (code, signal) => {
      if (signal !== null) {
        console.error(`plumbline ${label}: ${file} ended by ${signal}`);
        done(128 + (constants.signals[signal] ?? 0));
      } else done(code ?? 1);
    });
  });
}
