// Batch execution and summaries (interface-spec "Batch response"; D-charging, D-batch-limits, D-batch-execution):
// entries run a few at a time, each charged on its own; a failed entry costs 0; once the balance cannot cover an
// entry it fails with 402. The whole batch has a deadline, and a client that hangs up cancels what is left.
import type { Schemas } from "@plumbline-kit/contract";

export type BatchEntry<T> =
  | { success: true; data: T; cost: number }
  | { success: false; error: Schemas["BatchEntryError"]; cost: 0 };

export function summarize(entries: Array<{ success: boolean; cost: number }>): Schemas["BatchSummary"] {
  const successful = entries.filter((e) => e.success).length;
  return {
    total: entries.length,
    successful,
    failed: entries.length - successful,
    totalCost: entries.reduce((sum, e) => sum + e.cost, 0),
  };
}

export interface BatchLimits {
  /** entries running at once (default 4) */
  concurrency: number;
  /** the whole batch's time, ms (default 60 s); entries unfinished by then fail */
  deadlineMs: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { concurrency: 4, deadlineMs: 60_000 };

/** How one batch's entries are admitted, run and failed; paid-operation.ts supplies the charging. */
export interface BatchSteps<E> {
  /** takes the entry's hold and returns its run, or null when the balance cannot cover it now */
  admit(index: number): Promise<(() => Promise<E>) | null>;
  /** the answer of an entry the balance cannot cover (402) */
  refused(index: number): Promise<E>;
  /** the answer of an entry never started because the batch was cancelled or out of time */
  cancelled(index: number): E;
}

/**
 * Runs `count` entries, at most `concurrency` at once, started (and their holds taken) in entry order, results in
 * entry order. Outcomes are those of running them one after the other (D-charging: the balance runs out midway, not
 * at random): an entry the balance cannot cover while earlier ones still hold credit waits for them to settle or
 * release, and is refused only if it still cannot be covered. Once `signal` aborts no entry starts; the running
 * ones see the same signal through their engines.
 */
export async function runBatch<E>(
  count: number,
  steps: BatchSteps<E>,
  concurrency: number,
  signal?: AbortSignal,
): Promise<E[]> {
  const results: E[] = new Array(count);
  const running = new Set<Promise<unknown>>();
  for (let i = 0; i < count; i++) {
    while (running.size >= Math.max(1, concurrency)) await Promise.race(running);
    if (signal?.aborted) {
      results[i] = steps.cancelled(i);
      continue;
    }
    let run = await steps.admit(i);
    if (!run && running.size > 0) {
      await Promise.all(running);
      run = signal?.aborted ? null : await steps.admit(i);
      if (!run && signal?.aborted) {
        results[i] = steps.cancelled(i);
        continue;
      }
    }
    if (!run) {
      results[i] = await steps.refused(i);
      continue;
    }
    const index = i;
    const job: Promise<unknown> = run()
      .then((r) => {
        results[index] = r;
      })
      .finally(() => running.delete(job));
    running.add(job);
  }
  await Promise.all(running);
  return results;
}
