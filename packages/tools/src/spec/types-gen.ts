// Generates spec/types.gen.ts from the document with openapi-typescript (issue 2 §4). Nobody types a schema
// by hand: `plumbline spec types --write` regenerates, and a test fails when the committed file drifts.
import { pathToFileURL } from "node:url";
import { SPEC_PATH } from "@plumbline-kit/contract/document";

export const TYPES_PATH = new URL("../../../contract/src/types.gen.ts", import.meta.url);

const HEADER = `// Generated from spec/openapi.yaml by \`plumbline spec types --write\` (openapi-typescript). Do not edit.\n`;

export async function generateTypes(path: string = SPEC_PATH): Promise<string> {
  // dev-time tool: imported lazily so the runtime never loads the TypeScript compiler
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const ast = await openapiTS(pathToFileURL(path), { alphabetize: false, exportType: true, defaultNonNullable: false });
  return `${HEADER}${astToString(ast)}
/** Convenience aliases: the component schemas by name. */
export type Schemas = components["schemas"];
`;
}
