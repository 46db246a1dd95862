// The page index thread's entry from the repository's sources (index-thread.ts): the built thread when dist/ is of
// these very sources, else the TypeScript one through tsx (bin/from-sources.js), as the parse pool's workers load
// (engines/parse/parse-worker.mjs). Not part of the built package.
import { importWorkerModule } from "../../../../bin/from-sources.js";

await importWorkerModule(
  new URL("./index-thread-worker.ts", import.meta.url),
  new URL("../../dist/search/index-thread-worker.js", import.meta.url),
);
