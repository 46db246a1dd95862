// Generates the contract's types.gen.ts from the document with openapi-typescript (issue 2 §4). Nobody types a
// schema by hand: `plumbline spec types --write` regenerates, and a test fails when the committed file drifts.
// openapi-typescript (and the TypeScript compiler it needs, 25 MB) is a tool of plumbline's repository, not of the
// installed package: there `plumbline spec types` prints the types the contract package ships, generated from the
// same document when it was built (issue 36).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { contractPath, SPEC_PATH } from "@plumbline-kit/contract/document";

export const TYPES_PATH = new URL("../../../contract/src/types.gen.ts", import.meta.url);
/** The types of the `live` version of the contract (D-live-version), beside its document. */
export const LIVE_TYPES_PATH = new URL("../../../contract/src/live/types.gen.ts", import.meta.url);

const HEADER = `// Generated from spec/openapi.yaml by \`plumbline spec types --write\` (openapi-typescript). Do not edit.\n`;

/** The types of the contract's document: generated when openapi-typescript is at hand, else the shipped ones. */
export async function contractTypes(version = "seed"): Promise<string> {
  try {
    createRequire(import.meta.url).resolve("openapi-typescript");
  } catch {
    const module = version === "seed" ? "types.gen" : `${version}/types.gen`;
    const shipped = createRequire(import.meta.url).resolve(`@plumbline-kit/contract/${module}`);
    return readFileSync(shipped.replace(/\.js$/, ".d.ts"), "utf8");
  }
  return version === "seed" ? generateTypes() : generateTypes(contractPath(version), version);
}

export async function generateTypes(path: string = SPEC_PATH, version = "seed"): Promise<string> {
  // dev-time tool: imported lazily so the runtime never loads the TypeScript compiler
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const ast = await openapiTS(pathToFileURL(path), { alphabetize: false, exportType: true, defaultNonNullable: false });
  const header =
    version === "seed"
      ? HEADER
      : `// Generated from ${version}/openapi.yaml by \`plumbline spec types --contract ${version} --write\` (openapi-typescript). Do not edit.\n`;
  return `${header}${astToString(ast)}
/** Convenience aliases: the component schemas by name. */
export type Schemas = components["schemas"];
`;
}
