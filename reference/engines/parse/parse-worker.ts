// The pool's worker (piscina): runs one parse task. It first tells the pool, over the port the task carries, that the
// task has started, so the time cap counts parsing and not the wait in the queue.
import type { MessagePort } from "node:worker_threads";
import { type ParseTask, runParseTask } from "./parse-tasks.ts";

export default function parseInWorker(task: ParseTask & { started?: MessagePort }) {
  const { started, ...rest } = task;
  started?.postMessage(1);
  started?.close();
  return runParseTask(rest as ParseTask);
}
