// The page index thread's entry (index-thread.ts). A worker inherits no module loader, so the TypeScript worker is
// loaded through tsx's tsImport, as the parse pool's workers are (engines/parse/parse-worker.mjs).
import { tsImport } from "tsx/esm/api";

await tsImport("./index-thread-worker.ts", import.meta.url);
