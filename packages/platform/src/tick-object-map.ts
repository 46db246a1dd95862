// Keeps one of Node's process.nextTick objects alive for the life of the process, so that V8 never drops their
// hidden class (issue 25). Node builds each tick as an object literal with computed (symbol) keys; V8's feedback for
// such a literal goes from monomorphic straight to megamorphic, for good, the first time it meets a map it has not
// seen, and the tick maps are held only weakly: a full garbage collection at a moment no tick is queued frees them,
// the next tick makes fresh ones, and from then on every process.nextTick defines its five properties through the
// runtime (~5,800 instructions a call instead of ~400, callgrind). A server calls it ~6 times per request (Node's
// streams and http), so that was ~30,000 instructions per POST /search of the mock, a sixth of all it ran (181k ->
// 152k per call with this). The mock met it through the full collection that follows its start; a bare Fastify
// server made to collect its old space turns megamorphic the same way (%DebugPrint of process.nextTick's feedback).
// One tick object kept alive keeps its map, and with it the whole transition chain its feedback names.
import { executionAsyncResource } from "node:async_hooks";

let kept: object | null = null;

/** Idempotent; call it early, before any load: a feedback slot already megamorphic stays so. */
export function keepTickObjectMap(): void {
  if (kept) return;
  kept = {}; // not again, even before the tick below has run
  // inside a nextTick callback the execution resource is that tick's own object (Node's task queue)
  process.nextTick(() => {
    kept = executionAsyncResource();
  });
}
