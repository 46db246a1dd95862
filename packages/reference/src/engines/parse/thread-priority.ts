// The event loop outranks every other thread of the reference (issue 12: /health and /usage answer promptly while
// crawls fill the cores). Parse workers lower themselves (parse-worker.ts), but the heaviest helpers are not ours:
// V8's platform threads collect the parse workers' garbage (a fifth of the process's CPU under crawl load,
// measured per thread in /proc), and libuv's pool inflates sitemaps. On Linux a nice value belongs to a thread,
// and a thread inherits its creator's, so lowering every thread but the main one once the pools are up covers them.
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";

/** Lowers every thread of this process but the main one to `nice`; returns how many it lowered (0 off Linux). */
export function lowerHelperThreads(nice: number): number {
  if (process.platform !== "linux") return 0;
  let lowered = 0;
  let tasks: string[];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return 0;
  }
  for (const tid of tasks.map(Number)) {
    if (tid === process.pid) continue;
    try {
      setPriority(tid, nice);
      lowered++;
    } catch {
      // a thread that ended meanwhile, or a priority this process may not set
    }
  }
  return lowered;
}
