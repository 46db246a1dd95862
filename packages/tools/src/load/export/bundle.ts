// The scripts' code, bundled at export time by esbuild from the TypeScript modules plumbline load runs (runtime/), with
// the plan inlined: one self-contained file per engine, nothing to install beside it (Artillery copies a processor's
// imports to its cloud workers; k6 reads one file). Plain ES2019 for k6's JavaScript runtime.
import { fileURLToPath } from "node:url";
import type { ExportPlan } from "./export-plan.ts";

const RUNTIME_DIR = fileURLToPath(new URL("./runtime/", import.meta.url));

async function bundle(contents: string, banner: string, external: string[] = []): Promise<string> {
  // loaded on first use: importing the package must not load the bundler
  const { build } = await import("esbuild");
  const out = await build({
    stdin: { contents, resolveDir: RUNTIME_DIR, sourcefile: "plumbline-export-entry.js", loader: "js" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2019",
    external,
    write: false,
    legalComments: "none",
    charset: "utf8",
    logLevel: "silent",
    banner: { js: banner },
  });
  return out.outputFiles[0].text;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The Artillery processor: its hooks as the default export (Artillery merges a module's default into its functions). */
export function artilleryProcessorSource(plan: ExportPlan, banner: string): Promise<string> {
  return bundle(
    [
      `import { artilleryProcessor } from "./artillery-processor.ts";`,
      `const plan = ${json(plan)};`,
      "export default artilleryProcessor(plan);",
    ].join("\n"),
    banner,
  );
}

/** The k6 script: its options (scenarios, thresholds) as written by k6-options.ts, then the iteration code. */
export function k6Source(plan: ExportPlan, options: unknown, banner: string): Promise<string> {
  return bundle(
    [
      `import http from "k6/http";`,
      `import { sleep } from "k6";`,
      `import { Counter, Rate, Trend } from "k6/metrics";`,
      `import exec from "k6/execution";`,
      `import { k6Script } from "./k6-script.ts";`,
      `const plan = ${json(plan)};`,
      `export const options = ${json(options)};`,
      "const entry = k6Script(plan, { http, sleep, Counter, Rate, Trend, exec, env: __ENV });",
      "export function setup() { return entry.setup(); }",
      "export function plumblineRequests(data) { entry.requests(data); }",
      "export function plumblineFlow(data) { entry.flow(data); }",
      `export default ${plan.flow ? "plumblineFlow" : "plumblineRequests"};`,
    ].join("\n"),
    banner,
    ["k6", "k6/*"],
  );
}
