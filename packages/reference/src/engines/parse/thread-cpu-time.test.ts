// The parsing pool's time cap reads a worker's CPU time (D-parse-limits): a worker that computes shows the CPU it
// spent, one that waits shows none, whatever the wall clock says meanwhile.
import { once } from "node:events";
import { platform } from "node:os";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { currentThreadId, threadCpuMs } from "./thread-cpu-time.ts";

// a worker that reports its thread id, then on "spin" computes until its own clock shows 300 ms of CPU, and on
// "sleep" blocks (no CPU) until told to go on
const WORKER = `
const { parentPort } = require("node:worker_threads");
const { readlinkSync } = require("node:fs");
parentPort.postMessage({ tid: Number(readlinkSync("/proc/thread-self").split("/").pop()) });
parentPort.on("message", (m) => {
  if (m.spin) {
    const start = process.threadCpuUsage();
    let x = 0;
    while ((process.threadCpuUsage(start).user + process.threadCpuUsage(start).system) / 1000 < 300) x++;
    parentPort.postMessage({ spun: x > 0 });
  }
  if (m.sleep) {
    Atomics.wait(m.sleep, 0, 0);
    parentPort.postMessage({ slept: true });
  }
});`;

describe.runIf(platform() === "linux")("a thread's CPU time from /proc", () => {
  it("knows this thread, and counts a worker's computing but not its waiting", async () => {
    expect(currentThreadId()).toBe(process.pid); // the main thread's id is the process's
    const worker = new Worker(WORKER, { eval: true });
    try {
      const [{ tid }] = (await once(worker, "message")) as [{ tid: number }];
      const before = threadCpuMs(tid) as number;
      expect(before).toBeGreaterThanOrEqual(0);

      worker.postMessage({ spin: true });
      await once(worker, "message");
      const spun = (threadCpuMs(tid) as number) - before;
      expect(spun).toBeGreaterThanOrEqual(290); // /proc counts in 10 ms ticks

      const flag = new Int32Array(new SharedArrayBuffer(4));
      worker.postMessage({ sleep: flag });
      const asleep = threadCpuMs(tid) as number;
      await new Promise((r) => setTimeout(r, 300));
      const stillAsleep = threadCpuMs(tid) as number;
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      await once(worker, "message");
      expect(stillAsleep - asleep).toBeLessThanOrEqual(20); // blocked: at most a tick or two of receiving the message
    } finally {
      await worker.terminate();
    }
  });

  it("has no reading for a thread that is not there", () => {
    expect(threadCpuMs(undefined)).toBeUndefined();
    expect(threadCpuMs(2 ** 30)).toBeUndefined();
  });
});
