// The pool's worker (piscina): runs one parse task. It first tells the pool, on the worker's own port (piscina hands
// such messages to the pool's 'message' listeners), that the task has started, so the time cap counts parsing and
// not the wait in the queue.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { workerData } from "piscina";
import { type ParseTask, runParseTask } from "./parse-tasks.ts";
import { currentThreadId } from "./thread-cpu-time.ts";

// Parsing yields the cores to the event loop (issue 12: /health and /usage stay fast while crawls fill the pool).
// On Linux a nice value belongs to a thread, so this lowers this worker alone; where it cannot be set, parsing
// simply keeps the default priority.
try {
  setPriority((workerData as { nice?: number } | undefined)?.nice ?? 0);
} catch {}

/** This worker's thread, so the pool can read the CPU time a task spends (thread-cpu-time.ts). */
const tid = currentThreadId();

export default function parseInWorker(task: ParseTask & { id?: number }) {
  const { id, ...rest } = task;
  if (id !== undefined) {
    // its CPU so far, from its own clock (no /proc read on the pool's event loop): the cap counts from here
    const cpu = process.threadCpuUsage();
    parentPort?.postMessage({ parseStarted: id, tid, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
  return runParseTask(rest as ParseTask);
}
