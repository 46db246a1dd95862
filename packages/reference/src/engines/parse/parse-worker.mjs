// The worker threads' entry when the reference runs from the repository's sources (bin/plumbline.js, Vitest): the
// built worker when dist/ is of these very sources, else the TypeScript one through tsx (bin/from-sources.js: a
// worker inherits no module loader). The built package starts ./parse-worker.js itself (parse-pool.ts); this file
// is not part of it.
import { importWorkerModule } from "../../../../../bin/from-sources.js";

const mod = await importWorkerModule(
  new URL("./parse-worker.ts", import.meta.url),
  new URL("../../../dist/engines/parse/parse-worker.js", import.meta.url),
);
export default mod.default;
