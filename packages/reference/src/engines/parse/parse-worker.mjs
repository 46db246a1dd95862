// The worker threads' entry (issue 12). A worker inherits no module loader, whether the reference runs under
// `plumbline reference` (tsx registered), vitest, or plain Node importing the package (tsx's scoped tsImport), so
// the TypeScript worker is loaded through tsx's tsImport here, in every case the same way.
import { tsImport } from "tsx/esm/api";

const mod = await tsImport("./parse-worker.ts", import.meta.url);
export default mod.default;
