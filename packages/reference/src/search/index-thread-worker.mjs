// The page index thread's entry from the repository's sources (index-thread.ts): a worker inherits no module
// loader, so the TypeScript worker is loaded through tsx's tsImport with plumbline's packages resolved to their
// sources, as the parse pool's workers are (engines/parse/parse-worker.mjs). Not part of the built package.
import { register } from "node:module";
import { tsImport } from "tsx/esm/api";

register("../../../../bin/source-hooks.js", import.meta.url);

await tsImport("./index-thread-worker.ts", import.meta.url);
