// How another process starts the `plumbline` command (load compare's mock peer, the benchmarks): Node with the
// built entry (./plumbline.js in dist/), or, when running from the repository's sources, the repository's launcher
// (bin/plumbline.js, which resolves plumbline's packages to their TypeScript).
import { fileURLToPath } from "node:url";

/** The script to run with `process.execPath` to start `plumbline`. */
export function plumblineEntry() {
  const fromSources = new URL(".", import.meta.url).pathname.endsWith("/src/");
  return fileURLToPath(new URL(fromSources ? "../../../bin/plumbline.js" : "./plumbline.js", import.meta.url));
}
