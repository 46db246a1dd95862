// Runs one fast-check property under a seed and a time budget (style: "fuzzing runs under a time budget, not a
// run count"), then finishes shrinking: an interrupt that lands mid-shrink would leave a large counterexample, so
// a failure is replayed from its seed and path with a budget of its own to shrink further (fast-check "path").
import fc from "fast-check";
import { type CheckFailure, PropertyFailure } from "../checks/check-failure.ts";

export interface PropertyOutcome<T> {
  property: string;
  passed: boolean;
  /** runs that passed before the failure (or in all) */
  runs: number;
  seed: number;
  /** fast-check's replay path of the shrunk counterexample */
  path: string | null;
  shrinks: number;
  interrupted: boolean;
  counterexample: T | null;
  failures: CheckFailure[];
  /** an error that is not a check failure (a bug of the fuzzer or of the run) */
  error: string | null;
  ms: number;
}

export interface CheckOptions {
  seed: number;
  /** search budget; undefined with `runs` runs exactly that many cases */
  timeMs?: number;
  runs?: number;
  /** budget of the extra shrinking phase */
  shrinkMs?: number;
  /** stop early (another worker found a failure) */
  stopped?: () => boolean;
  /** waits for runs a time limit left going (in-flight.ts), after each phase */
  settle?: () => Promise<void>;
}

/** A plugin that ends the run as soon as `stopped()` says so (fast-check 4.10 plugin API). */
function stopWhen(stopped: () => boolean): fc.Plugin<unknown> {
  return () => ({
    decorateRun: (nested) => (value) => (stopped() ? new fc.PreconditionFailure(true) : nested(value)),
  });
}

function failuresOf(error: unknown): { failures: CheckFailure[]; error: string | null } {
  if (error instanceof PropertyFailure) return { failures: error.failures, error: null };
  if (error === null || error === undefined) return { failures: [], error: null };
  return { failures: [], error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

export async function checkProperty<T>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<[T]>,
  o: CheckOptions,
): Promise<PropertyOutcome<T>> {
  const started = performance.now();
  const plugins: fc.Plugin<unknown>[] = [];
  if (o.timeMs !== undefined) plugins.push(fc.interruptAfterTimeLimit(o.timeMs));
  if (o.stopped) plugins.push(stopWhen(o.stopped));
  const numRuns = o.runs ?? (o.timeMs !== undefined ? 2 ** 30 : 100);
  let details = await fc.check(property, { seed: o.seed, numRuns, plugins });
  await o.settle?.();
  if (details.failed && details.interrupted && details.counterexamplePath) {
    try {
      const again = await fc.check(property, {
        seed: o.seed,
        path: details.counterexamplePath,
        plugins: [fc.interruptAfterTimeLimit(o.shrinkMs ?? 10_000)],
      });
      if (again.failed && again.counterexample) details = again;
    } catch {
      // fc.commands cannot replay a path without its own replayPath: keep what the first phase shrank
    } finally {
      await o.settle?.();
    }
  }
  const { failures, error } = failuresOf(details.errorInstance);
  // an interrupt before the first case counts as failed in fast-check; without a counterexample nothing failed
  const failed = details.failed && details.counterexamplePath !== null;
  return {
    property: name,
    passed: !failed,
    runs: details.numRuns,
    seed: o.seed,
    path: details.counterexamplePath,
    shrinks: details.numShrinks,
    interrupted: details.interrupted,
    counterexample: details.counterexample ? (details.counterexample as [T])[0] : null,
    failures,
    error: failed && failures.length === 0 ? (error ?? "the property failed without a check failure") : null,
    ms: performance.now() - started,
  };
}
