// Every thread of the process but the main one is lowered (issue 12): the event loop outranks parse workers, V8's
// collectors and libuv's pool. Linux only: there a nice value belongs to a thread (read back from /proc).
import { readdirSync, readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { lowerHelperThreads } from "./thread-priority.ts";

const niceOf = (tid: string) =>
  Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16]);

describe.runIf(process.platform === "linux")("lowerHelperThreads", () => {
  it("lowers every thread but the main one, which keeps its priority", async () => {
    const worker = new Worker("setInterval(() => {}, 1000)", { eval: true });
    await new Promise((r) => worker.once("online", r));
    try {
      const lowered = lowerHelperThreads(7);
      const tids = readdirSync("/proc/self/task");
      expect(lowered).toBe(tids.length - 1);
      for (const tid of tids) expect(niceOf(tid), `thread ${tid}`).toBe(Number(tid) === process.pid ? 0 : 7);
    } finally {
      await worker.terminate();
    }
  });
});
