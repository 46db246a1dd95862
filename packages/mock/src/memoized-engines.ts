// Memoized synthetic engines. The mock promises the same answer for the same seed and request, so an answer can
// be kept and served again: client test suites repeat requests, and generation is most of a call's cost
// (profiled under load). Only engines whose answer is a pure function of seed and request are memoized: crawl
// stamps `fetched_at` from the clock and screenshot returns a fresh image buffer.

import type { EngineContext, EngineResult, Engines } from "@plumbline-kit/platform/engines";
import { PRESERIALIZED } from "@plumbline-kit/platform/operation-executors";
import { LRUCache } from "lru-cache";

const PURE = ["search", "news", "sitemap", "trending", "extract"] as const;

/** Answers the memo keeps by default (`plumbline mock --cache-size`); the least recently used go first. */
export const DEFAULT_MEMO_SIZE = 2000;

/** The serialized bytes the memo keeps at most, whatever the count. */
export const MEMO_MAX_BYTES = 64 * 1024 * 1024;

export type MemoizedEngines = Engines & { cacheSize(): number; cacheBytes(): number; cacheMax: number };

/** `max` 0 memoizes nothing. */
export function memoizeEngines(engines: Engines, max = DEFAULT_MEMO_SIZE): MemoizedEngines {
  if (max === 0) return { ...engines, cacheSize: () => 0, cacheBytes: () => 0, cacheMax: 0 };
  // bounded by bytes too: an answer's size follows its request (an extract schema, a long query), so a count alone
  // would not bound memory; the key is counted with the answer's serialized bytes
  const cache = new LRUCache<string, EngineResult<unknown>>({ max, maxSize: MEMO_MAX_BYTES });
  const memo =
    <A>(operationId: string, run: (args: A, ctx: EngineContext) => Promise<EngineResult<unknown>>) =>
    (args: A, ctx: EngineContext): Promise<EngineResult<unknown>> => {
      // the request as parsed, not canonicalised: a request with its fields in another order is only a cache
      // miss (generation itself is canonical), and plain JSON.stringify is several times cheaper
      const key = `${operationId}\u0000${ctx.seed}\u0000${ctx.variability}\u0000${JSON.stringify(args)}`;
      const hit = cache.get(key);
      // not an async function: a hit is the hot path under load, and costs one settled promise
      if (hit) return Promise.resolve(hit);
      return run(args, ctx).then((result) => {
        // frozen, so a caller that changed a shared answer would throw instead of corrupting the next one; the
        // bytes are kept beside it, so a hit is neither serialized nor UTF-8 encoded again
        if (result.ok) {
          if (result.value !== null && typeof result.value === "object") {
            Object.defineProperty(result.value, PRESERIALIZED, {
              value: Buffer.from(JSON.stringify(result.value)),
              enumerable: false,
            });
          }
          const bytes = (result.value as { [PRESERIALIZED]?: Buffer } | null)?.[PRESERIALIZED]?.byteLength ?? 0;
          // an answer bigger than the whole budget is not kept (lru-cache would refuse it anyway)
          if (bytes + key.length < MEMO_MAX_BYTES) cache.set(key, deepFreeze(result), { size: bytes + key.length + 1 });
        }
        return result;
      });
    };
  const out = {
    ...engines,
    cacheSize: () => cache.size,
    cacheBytes: () => cache.calculatedSize,
    cacheMax: max,
  } as MemoizedEngines;
  for (const op of PURE) (out as unknown as Record<string, unknown>)[op] = memo(op, engines[op] as never);
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
