// Batch execution and summaries (interface-spec "Batch response"; D-charging, D-batch-limits): entries run in
// order, each charged on its own; a failed entry costs 0; once the balance cannot cover an entry it fails with 402.
import type { Schemas } from "../../spec/index.ts";

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

/** Runs `run` over the items one after the other (order matters: the balance runs out midway, not at random). */
export async function runBatch<I, E extends { success: boolean; cost: number }>(
  items: I[],
  run: (item: I, index: number) => Promise<E>,
): Promise<E[]> {
  const out: E[] = [];
  for (const [i, item] of items.entries()) out.push(await run(item, i));
  return out;
}
