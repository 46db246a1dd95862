// A thread's CPU time, read from the outside (Linux /proc): the parsing pool caps a task by the CPU its worker spent
// on it, not by the wall time, so a page is refused for what it costs to parse and not for how busy the machine was
// meanwhile (a worker runs at nice 19: beside other work it may get a fraction of a core). Elsewhere, or when /proc
// cannot be read, there is no reading and the cap stays wall time.
import { readFileSync, readlinkSync } from "node:fs";

/** The calling thread's Linux thread id (from a worker: its own), or undefined where it cannot be known. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's utime and stime: 100 on every Linux kernel config Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) thread `tid` of process `pid` (default: this one) has used, or undefined. */
export function threadCpuMs(tid: number | undefined, pid: number | "self" = "self"): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // the fields after the command name (which may hold spaces and parentheses): state is field 3, utime 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
