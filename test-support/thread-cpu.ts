// Where a crawl's CPU goes, for `bench crawl-load` (issue 12): the CPU time of each thread of the reference process
// the bench started, read from Linux's /proc (elsewhere nothing is reported). Node names no thread, so the parse
// threads are taken to be the busiest ones besides the event loop (under crawl load they run at 0.6-0.7 of a core,
// V8's helper threads under 0.1 each).
import { readdirSync, readFileSync } from "node:fs";
import { threadCpuMs } from "@plumbline-kit/reference/engines/parse/thread-cpu-time";

/**
 * The process that serves, given the pid the bench started: `plumbline reference` serves from a child Node it
 * starts with V8 flags (bin/relaunch.js), itself a thin parent. The pid itself where it has no one child (or /proc
 * cannot tell).
 */
export function serverPid(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.length === 1 ? Number(children[0]) : pid;
  } catch {
    return pid;
  }
}

/** CPU seconds by thread id, or null where /proc cannot tell. */
export function threadCpu(pid: number): Map<number, number> | null {
  if (process.platform !== "linux") return null;
  try {
    const out = new Map<number, number>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const ms = threadCpuMs(Number(tid), pid); // undefined: a thread that ended meanwhile
      if (ms !== undefined) out.set(Number(tid), ms / 1000);
    }
    return out;
  } catch {
    return null;
  }
}

/** CPU ms per crawl: the parse threads, the event loop, every other thread of the reference, the load generator. */
export interface CrawlCpu {
  parse: number;
  loop: number;
  other: number;
  bench: number;
}

export function crawlCpu(
  pid: number,
  before: Map<number, number> | null,
  after: Map<number, number> | null,
  parseThreads: number,
  benchMicros: number,
  crawls: number,
): CrawlCpu | undefined {
  if (!before || !after || crawls === 0) return undefined;
  const used = [...after].map(([tid, s]) => [tid, s - (before.get(tid) ?? 0)] as const);
  const loop = used.find(([tid]) => tid === pid)?.[1] ?? 0;
  const rest = used.filter(([tid]) => tid !== pid).map(([, s]) => s);
  rest.sort((a, b) => b - a);
  const parse = rest.slice(0, parseThreads).reduce((a, b) => a + b, 0);
  const other = rest.slice(parseThreads).reduce((a, b) => a + b, 0);
  const ms = (s: number) => (s * 1_000) / crawls;
  return { parse: ms(parse), loop: ms(loop), other: ms(other), bench: benchMicros / 1_000 / crawls };
}
