// The worker threads' entry when the reference runs from the repository's sources (bin/plumbline.js, vitest): a
// worker inherits no module loader, so the TypeScript worker is loaded through tsx's tsImport, with plumbline's
// packages resolved to their sources (bin/source-hooks.js). The built package starts ./parse-worker.js instead
// (parse-pool.ts); this file is not part of it.
import { register } from "node:module";
import { tsImport } from "tsx/esm/api";

register("../../../../../bin/source-hooks.js", import.meta.url);

const mod = await tsImport("./parse-worker.ts", import.meta.url);
export default mod.default;
