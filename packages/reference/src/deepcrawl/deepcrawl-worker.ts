// The job worker (issue 11 "Crash safety", "Scale-out"): claims tasks from the shared table (sql-deepcrawl.ts),
// renews each lease while the task runs, and lets go cleanly on close. A task whose worker died is claimed again
// when its lease runs out and resumes where it stopped; one claimed more than maxAttempts times fails with a clear
// error instead of crashing workers forever. Every instance runs one; SQLite's is simply the only one.
import { randomBytes } from "node:crypto";
import type { Clock } from "@plumbline-kit/platform/stores";
import type { SqlDeepcrawlStore, TaskRow } from "../store/sql-deepcrawl.ts";
import { LeaseLost } from "./deepcrawl-run.ts";

export interface WorkerOptions {
  store: SqlDeepcrawlStore;
  clock: Clock;
  leaseMs: number;
  pollMs: number;
  maxTasks: number;
  maxAttempts: number;
  run(task: TaskRow, owner: string, signal: AbortSignal): Promise<void>;
  /** a task this worker ended `failed` (its charge is refunded, D-charging) */
  onFailed?(task: TaskRow): Promise<void>;
  log: (message: string, err?: unknown) => void;
}

export interface DeepcrawlWorker {
  /** which worker holds a lease (the task's lease_owner) */
  owner: string;
  /** look for tasks now (a task was just started here) */
  wake(): void;
  /** stops claiming, stops the running tasks and releases their leases for another instance */
  close(): Promise<void>;
}

export function startDeepcrawlWorker(o: WorkerOptions): DeepcrawlWorker {
  const owner = `w_${randomBytes(8).toString("hex")}`;
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let closed = false;
  let wakeUp: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function execute(task: TaskRow, abort: AbortController) {
    const heartbeat = setInterval(
      () => {
        o.store.renew(task.task_id, owner, o.clock.now() + o.leaseMs).then(
          (held) => {
            if (!held) abort.abort(new LeaseLost("lease lost"));
          },
          (err) => o.log(`deepcrawl ${task.task_id}: renewing the lease failed`, err),
        );
      },
      Math.max(50, Math.floor(o.leaseMs / 3)),
    );
    // the end state is read back once the run is over: whichever way the task failed (runTask's own failures, the
    // attempts limit, an internal error), this worker wrote it, since a write needs the lease (sql-deepcrawl.ts)
    let ended = false;
    try {
      if (task.attempts > o.maxAttempts) {
        await o.store.update(task.task_id, owner, {
          status: "failed",
          message: "The crawl failed",
          error: `The crawl was interrupted ${task.attempts - 1} times (its server stopped or crashed while crawling); giving up`,
          completed_at: new Date(o.clock.now()).toISOString(),
        });
      } else await o.run(task, owner, abort.signal);
      ended = true;
    } catch (err) {
      if (err instanceof LeaseLost || abort.signal.aborted) return;
      o.log(`deepcrawl ${task.task_id}: unexpected error`, err);
      ended = await o.store
        .update(task.task_id, owner, {
          status: "failed",
          message: "The crawl failed",
          error: `Internal error while crawling: ${err instanceof Error ? err.message : String(err)}`,
          completed_at: new Date(o.clock.now()).toISOString(),
        })
        .catch((e) => {
          o.log(`deepcrawl ${task.task_id}: recording the failure failed`, e);
          return false;
        });
    } finally {
      clearInterval(heartbeat);
      if (closed) await o.store.release(task.task_id, owner).catch(() => {});
    }
    if (ended && o.onFailed) {
      const after = await o.store.getTask(task.task_id).catch(() => null);
      if (after?.status === "failed" && after.lease_owner === owner) await o.onFailed(after);
    }
  }

  async function loop() {
    while (!closed) {
      let claimed: TaskRow | null = null;
      if (running.size < o.maxTasks) {
        try {
          claimed = await o.store.claim(owner, o.clock.now(), o.leaseMs);
        } catch (err) {
          if (!closed) o.log("deepcrawl worker: claiming a task failed", err);
        }
      }
      if (claimed && !closed) {
        const t = claimed;
        const entry = { abort: new AbortController(), done: Promise.resolve() };
        entry.done = execute(t, entry.abort).finally(() => {
          running.delete(t.task_id);
          wakeUp?.();
        });
        running.set(t.task_id, entry);
        continue;
      }
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        timer = setTimeout(resolve, o.pollMs);
      });
      wakeUp = null;
      if (timer) clearTimeout(timer);
    }
  }
  const looping = loop();

  return {
    owner,
    wake() {
      wakeUp?.();
    },
    async close() {
      closed = true;
      wakeUp?.();
      await looping;
      for (const r of running.values()) r.abort.abort(new LeaseLost("the worker is closing"));
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}
