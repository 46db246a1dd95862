// runBatch (D-batch-execution): concurrent, yet with the outcomes of running the entries one after the other.
import { describe, expect, it } from "vitest";
import { runBatch } from "./batch.ts";

type Result = { index: number; outcome: "ok" | "failed" | "402" | "cancelled" };

/** A balance with holds; entry i costs 1 and fails (released) when `fails(i)`, after `delay(i)` ms. */
function bank(credits: number, fails: (i: number) => boolean, delay: (i: number) => number) {
  let balance = credits;
  let peak = 0;
  let running = 0;
  return {
    get balance() {
      return balance;
    },
    get peak() {
      return peak;
    },
    steps: {
      admit: async (i: number) => {
        if (balance < 1) return null;
        balance -= 1;
        return async (): Promise<Result> => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, delay(i)));
          running--;
          if (fails(i)) {
            balance += 1;
            return { index: i, outcome: "failed" };
          }
          return { index: i, outcome: "ok" };
        };
      },
      refused: async (i: number): Promise<Result> => ({ index: i, outcome: "402" }),
      cancelled: (i: number): Result => ({ index: i, outcome: "cancelled" }),
    },
  };
}

/** The sequential outcome: each entry against what the earlier ones left. */
function sequential(count: number, credits: number, fails: (i: number) => boolean): Result["outcome"][] {
  let balance = credits;
  return Array.from({ length: count }, (_, i) => {
    if (balance < 1) return "402";
    if (fails(i)) return "failed";
    balance -= 1;
    return "ok";
  });
}

describe("runBatch", () => {
  it.each([
    [10, 20],
    [10, 5],
    [12, 3],
    [8, 0],
  ])("%i entries on %i credits: the sequential outcome, in entry order, 4 at a time", async (count, credits) => {
    const fails = (i: number) => i % 3 === 0;
    // later entries finish first, so order and outcome cannot come from completion order
    const b = bank(credits, fails, (i) => 5 + ((count - i) % 4) * 7);
    const results = await runBatch(count, b.steps, 4);
    expect(results.map((r) => r.index)).toEqual([...Array(count).keys()]);
    expect(results.map((r) => r.outcome)).toEqual(sequential(count, credits, fails));
    expect(b.peak).toBeLessThanOrEqual(4);
    if (count > 4 && credits > 4) expect(b.peak).toBe(4);
  });

  it("starts nothing more once its signal aborts, and the entries not started are cancelled", async () => {
    const b = bank(
      100,
      () => false,
      () => 30,
    );
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 10);
    const results = await runBatch(10, b.steps, 2, stop.signal);
    expect(results.slice(0, 2).map((r) => r.outcome)).toEqual(["ok", "ok"]);
    expect(results.slice(2).every((r) => r.outcome === "cancelled")).toBe(true);
    expect(b.balance).toBe(98);
  });
});
