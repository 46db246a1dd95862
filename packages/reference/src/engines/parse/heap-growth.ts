// The reference's old generation grows by a fixed factor between full collections (issue 12). V8 sizes the next
// limit from how fast it marked against how fast the program promoted, and when marking looked fast (its helper
// threads mark concurrently) it chose its minimum, 1.1: the event loop's heap holds ~70 MB of loaded code and
// module sources, so under crawl load a full collection came every 0.7 s, each 50-100 ms of marking steps on the
// event loop and a 10-30 ms pause (measured with --trace-gc and --trace-incremental-marking; it happened in some
// runs and not others, by where the first collection under load fell). Doubling keeps the heap within 2x its live
// size (~150 MB) and a full collection a minute or more apart under the same load.
import { setFlagsFromString } from "node:v8";

export const HEAP_GROWING_PERCENT = 100;

/** For the process's own isolates (read at each full collection, so setting it once started is enough). */
export function steadyHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
