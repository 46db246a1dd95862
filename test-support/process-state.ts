// A process's state letter from Linux's /proc (R running, S sleeping, T stopped, Z ended but not yet reaped), for
// tests that follow the processes `plumbline reference` starts. Test glue.
import { readFileSync } from "node:fs";

/** The state letter, or undefined once the process is gone. */
export function processState(pid: number): string | undefined {
  try {
    return /^State:\s+(\w)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

/** Gone, or ended and waiting to be reaped. */
export const processEnded = (pid: number): boolean => {
  const state = processState(pid);
  return state === undefined || state === "Z";
};
